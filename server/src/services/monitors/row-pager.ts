import {
  statusRank,
  type MonitorRowSort,
  type MonitorRowsQuery,
  type MonitorStatus,
  type MonitorSummary,
  type MonitorType,
} from '@pagewatch/contract';
import { validationFailed } from '../../lib/errors.js';
import { countByStatus } from './present-summary.js';

/** A summary with what paging needs precomputed: the row's JSON and its search and name keys. */
export interface IndexedRow {
  summary: MonitorSummary;
  rowJson: string;
  hay: string;
  nameKey: string;
}

export function indexRow(s: MonitorSummary): IndexedRow {
  const row = {
    id: s.id,
    status: s.status,
    statusChangedAt: s.statusChangedAt,
    lastCheck: s.lastCheck,
    type: s.type,
    name: s.name,
    target: s.target,
    tags: s.tags,
    paused: s.paused,
    uptime24h: s.uptime24h,
    recent: s.recent,
  };
  const hay = [s.name, s.target, ...s.tags].join('\n').toLowerCase();
  return { summary: s, rowJson: JSON.stringify(row), hay, nameKey: s.name.toLowerCase() };
}

/** One position in an order: the sort value when the order was built (ascending), then name, id. */
interface Key {
  k: number;
  n: string;
  id: number;
}
interface Order {
  keys: Key[];
  version: number;
  defVersion: number;
  builtAt: number;
}

// With results arriving all the time, an order is rebuilt for a first page at most this often
// (at 100,000 rows a pass costs milliseconds, a sort tens); rows added or renamed show at once.
const RESORT_MS = 2_000;

const sortValue: Record<MonitorRowSort, (s: MonitorSummary) => number> = {
  status: (s) => statusRank[s.status],
  name: () => 0,
  latency: (s) => (s.lastCheck?.latencyMs == null ? Infinity : -s.lastCheck.latencyMs),
  uptime: (s) => s.uptime24h ?? Infinity,
  changed: (s) => (s.statusChangedAt ? -Date.parse(s.statusChangedAt) : Infinity),
};

const compare = (a: Key, b: Key) => a.k - b.k || (a.n < b.n ? -1 : a.n > b.n ? 1 : a.id - b.id);

const encodeCursor = (key: Key) =>
  Buffer.from(JSON.stringify([Number.isFinite(key.k) ? key.k : null, key.n, key.id])).toString(
    'base64url',
  );

function decodeCursor(cursor: string): Key {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (
      Array.isArray(v) &&
      v.length === 3 &&
      (v[0] === null || typeof v[0] === 'number') &&
      typeof v[1] === 'string' &&
      Number.isInteger(v[2])
    ) {
      return { k: (v[0] as number | null) ?? Infinity, n: v[1], id: v[2] as number };
    }
  } catch {
    // Falls through to the validation error.
  }
  throw validationFailed([
    { path: 'cursor', message: 'Not a cursor this list gave out', code: 'invalid' },
  ]);
}

type Filter = Pick<MonitorRowsQuery, 'tag' | 'type' | 'q'>;

function matcher({ tag, type, q }: Filter): (r: IndexedRow) => boolean {
  const needle = q?.trim().toLowerCase() ?? '';
  return (r) =>
    (tag === undefined || r.summary.tags.includes(tag)) &&
    (type === undefined || r.summary.type === type) &&
    (needle === '' || r.hay.includes(needle));
}

/**
 * Pages the dashboard list out of the rows the read model holds. Pages follow an order built
 * from a snapshot of the sort values and are cut by keyset cursors (value, name, id), so a row
 * whose values did not change is never repeated or skipped across pages, whatever else changes.
 */
export class RowPager {
  private version = 0;
  private defVersion = 0;
  private readonly orders = new Map<MonitorRowSort, Order>();
  private byName: { keys: Key[]; defVersion: number } | null = null;
  private facets: { tags: string[]; types: MonitorType[]; defVersion: number } | null = null;
  private names: { json: string; defVersion: number } | null = null;

  constructor(private readonly rows: ReadonlyMap<number, IndexedRow>) {}

  /** A row changed; `definition` when its name, tags or type did, or it came or went. */
  changed(definition: boolean): void {
    this.version++;
    if (definition) this.defVersion++;
  }

  /** The MonitorNames response body by name, as JSON text; kept until a definition changes. */
  namesJson(): string {
    if (this.names?.defVersion === this.defVersion) return this.names.json;
    const items: { id: number; name: string; target: string }[] = [];
    for (const { id } of this.nameOrder()) {
      const s = this.rows.get(id)?.summary;
      if (s) items.push({ id, name: s.name, target: s.target });
    }
    this.names = { json: JSON.stringify({ items }), defVersion: this.defVersion };
    return this.names.json;
  }

  /** Every monitor matching the dashboard's filters (a bulk action's "all matching"), by id. */
  matchingIds(filter: Filter & Pick<MonitorRowsQuery, 'status'>): number[] {
    const matches = matcher(filter);
    const out: number[] = [];
    for (const r of this.rows.values()) {
      if (filter.status !== undefined && r.summary.status !== filter.status) continue;
      if (matches(r)) out.push(r.summary.id);
    }
    return out.sort((a, b) => a - b);
  }

  /** The MonitorRowPage response body, as JSON text. */
  pageJson(query: MonitorRowsQuery, now: number): string {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const keys = this.order(query.sort, after === null, now);
    const filtered = query.tag !== undefined || query.type !== undefined || !!query.q?.trim();
    // One pass tests every row (text search is the costly part) and counts the chips.
    const hits = filtered ? this.matching(matcher(query)) : null;
    const counts = countByStatus(hits ? hits.values() : this.summaries());
    let i = 0;
    if (after) {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(keys[mid]!, after) <= 0) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    const parts: string[] = [];
    let last: Key | null = null;
    let more = false;
    for (; i < keys.length; i++) {
      const key = keys[i]!;
      const row = this.rows.get(key.id);
      if (!row || (hits && !hits.has(key.id))) continue;
      if (query.status !== undefined && row.summary.status !== query.status) continue;
      if (parts.length === query.limit) {
        more = true;
        break;
      }
      parts.push(row.rowJson);
      last = key;
    }
    const total = query.status === undefined ? sum(counts) : counts[query.status];
    const down = filtered ? this.downCount() : counts.down;
    const { tags, types } = this.facetsNow();
    const nextCursor = more && last ? JSON.stringify(encodeCursor(last)) : 'null';
    return (
      `{"items":[${parts.join(',')}],"nextCursor":${nextCursor},"total":${total},` +
      `"counts":${JSON.stringify(counts)},"all":${this.rows.size},"down":${down},` +
      `"tags":${JSON.stringify(tags)},"types":${JSON.stringify(types)}}`
    );
  }

  private matching(matches: (r: IndexedRow) => boolean): Map<number, MonitorSummary> {
    const out = new Map<number, MonitorSummary>();
    for (const r of this.rows.values()) if (matches(r)) out.set(r.summary.id, r.summary);
    return out;
  }

  private summaries(): MonitorSummary[] {
    const out: MonitorSummary[] = [];
    for (const r of this.rows.values()) out.push(r.summary);
    return out;
  }

  private downCount(): number {
    let n = 0;
    for (const r of this.rows.values()) if (r.summary.status === 'down') n++;
    return n;
  }

  /** The order to page through: kept for later pages, rebuilt for a first page when stale. */
  private order(sort: MonitorRowSort, first: boolean, now: number): Key[] {
    const held = this.orders.get(sort);
    const fresh =
      held &&
      (!first ||
        held.version === this.version ||
        (held.defVersion === this.defVersion && now - held.builtAt < RESORT_MS));
    if (held && fresh) return held.keys;
    const keys = this.build(sort);
    this.orders.set(sort, {
      keys,
      version: this.version,
      defVersion: this.defVersion,
      builtAt: now,
    });
    return keys;
  }

  private build(sort: MonitorRowSort): Key[] {
    const names = this.nameOrder();
    const value = sortValue[sort];
    const keys: Key[] = [];
    for (const { n, id } of names) {
      const row = this.rows.get(id);
      if (row) keys.push({ k: value(row.summary), n, id });
    }
    if (sort === 'name') return keys;
    if (sort === 'status') {
      // One bucket a status rank: a stable bucket pass over the name order instead of a sort.
      const buckets: Key[][] = Object.keys(statusRank).map(() => []);
      for (const key of keys) buckets[key.k]!.push(key);
      return buckets.flat();
    }
    // Sorting positions keeps the name order for ties without a lookup per comparison.
    const positions = keys.map((_, i) => i);
    positions.sort((a, b) => keys[a]!.k - keys[b]!.k || a - b);
    return positions.map((i) => keys[i]!);
  }

  private nameOrder(): Key[] {
    if (this.byName?.defVersion === this.defVersion) return this.byName.keys;
    const keys = [...this.rows.values()].map((r) => ({ k: 0, n: r.nameKey, id: r.summary.id }));
    keys.sort(compare);
    this.byName = { keys, defVersion: this.defVersion };
    return keys;
  }

  private facetsNow(): { tags: string[]; types: MonitorType[] } {
    if (this.facets?.defVersion === this.defVersion) return this.facets;
    const tags = new Set<string>();
    const types = new Set<MonitorType>();
    for (const r of this.rows.values()) {
      types.add(r.summary.type);
      for (const t of r.summary.tags) tags.add(t);
    }
    this.facets = { tags: [...tags].sort(), types: [...types].sort(), defVersion: this.defVersion };
    return this.facets;
  }
}

const sum = (counts: Record<MonitorStatus, number>) =>
  Object.values(counts).reduce((a, b) => a + b, 0);
