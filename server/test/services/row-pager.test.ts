import {
  MonitorRowPage,
  statusRank,
  type MonitorRowsQuery,
  type MonitorStatus,
  type MonitorSummary,
} from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { indexRow, RowPager, type IndexedRow } from '../../src/services/monitors/row-pager.js';

const statuses: MonitorStatus[] = ['up', 'down', 'degraded', 'pending', 'paused', 'maintenance'];

function summary(id: number, over: Partial<MonitorSummary> = {}): MonitorSummary {
  return {
    id,
    status: statuses[id % statuses.length]!,
    statusChangedAt: new Date(1_700_000_000_000 + id * 1000).toISOString(),
    lastCheck: {
      at: new Date(1_700_000_000_000).toISOString(),
      outcome: 'up',
      latencyMs: (id * 37) % 500,
      httpStatus: 200,
      errorCode: null,
      errorMessage: null,
    },
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    type: id % 3 === 0 ? 'tcp' : 'http',
    name: `Monitor ${String(id % 97).padStart(2, '0')}`,
    target: `https://svc-${id}.example/`,
    interval: 60,
    tags: id % 2 === 0 ? ['even'] : ['odd'],
    paused: false,
    uptime24h: id % 5 === 0 ? null : 90 + (id % 10),
    recent: { outcomes: 'uu', latencyMs: [1, 2] },
    ...over,
  };
}

function model(n: number) {
  const rows = new Map<number, IndexedRow>();
  const pager = new RowPager(rows);
  const put = (s: MonitorSummary, definition = false) => {
    rows.set(s.id, indexRow(s));
    pager.changed(definition);
  };
  for (let id = 1; id <= n; id++) put(summary(id), true);
  const page = (q: Partial<MonitorRowsQuery> = {}, now = 0) =>
    MonitorRowPage.parse(JSON.parse(pager.pageJson({ limit: 100, sort: 'status', ...q }, now)));
  return { rows, pager, put, page };
}

function walk(m: ReturnType<typeof model>, q: Partial<MonitorRowsQuery>, between = () => {}) {
  const ids: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const p = m.page({ ...q, cursor });
    ids.push(...p.items.map((i) => i.id));
    if (p.nextCursor === null) return ids;
    cursor = p.nextCursor;
    between();
  }
}

describe('the dashboard row pager', () => {
  it('pages every order without duplicates or gaps, in the order of one full page', () => {
    const m = model(1000);
    for (const sort of ['status', 'name', 'latency', 'uptime', 'changed'] as const) {
      const ids = walk(m, { sort, limit: 37 });
      expect(new Set(ids).size).toBe(1000);
      expect(ids).toEqual(walk(m, { sort, limit: 500 }));
    }
  });

  it('orders worst status first, then by name and id; slowest first with unknowns last', () => {
    const m = model(300);
    const rows = walk(m, { limit: 50 }).map((id) => m.rows.get(id)!.summary);
    const rank = statusRank;
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      const order =
        rank[a.status] - rank[b.status] ||
        (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name > b.name ? 1 : a.id - b.id);
      expect(order).toBeLessThan(0);
    }
    m.put(summary(7, { lastCheck: null }));
    const slow = walk(m, { sort: 'latency', limit: 60 }).map((id) => m.rows.get(id)!.summary);
    const ms = slow.map((s) => s.lastCheck?.latencyMs ?? null);
    expect(ms.at(-1)).toBeNull();
    const known = ms.filter((v) => v !== null);
    expect(known).toEqual([...known].sort((a, b) => b - a));
  });

  it('never repeats or skips a row that did not change while others change between pages', () => {
    const m = model(2000);
    const changed = new Set<number>();
    let tick = 0;
    const ids = walk(m, { limit: 90 }, () => {
      // Statuses flip, latencies move and monitors come and go between the requests.
      for (let k = 0; k < 25; k++) {
        const id = 1 + ((tick * 131 + k * 977) % 2000);
        changed.add(id);
        m.put(summary(id, { status: statuses[(id + tick) % 6]!, uptime24h: tick % 100 }));
      }
      m.rows.delete(1999);
      changed.add(1999);
      m.pager.changed(true);
      // A new first page rebuilds the order that later pages follow.
      m.page({ limit: 1 }, ++tick * 10_000);
    });
    const seen = new Set<number>();
    for (const id of ids) {
      if (!changed.has(id)) expect(seen.has(id), `row ${id} repeated`).toBe(false);
      seen.add(id);
    }
    for (let id = 1; id <= 2000; id++) {
      if (!changed.has(id)) expect(seen.has(id), `row ${id} skipped`).toBe(true);
    }
  });

  it('rebuilds an order for a first page once it is two seconds old, at once for a new row', () => {
    const m = model(50);
    const firstId = () => m.page({ limit: 1 }, now).items[0]!.id;
    let now = 0;
    const before = firstId();
    m.put(summary(before, { status: 'paused' }));
    now = 1000;
    expect(firstId()).toBe(before);
    now = 2000;
    expect(firstId()).not.toBe(before);
    m.put(summary(51, { status: 'down', name: 'A new one' }), true);
    now = 2001;
    expect(firstId()).toBe(51);
  });

  it('filters by status, tag, type and text, and counts the chips before the status filter', () => {
    const m = model(600);
    const p = m.page({ tag: 'even', type: 'tcp', status: 'up' });
    const even = [...m.rows.values()].map((r) => r.summary).filter((s) => s.tags[0] === 'even');
    const tcp = even.filter((s) => s.type === 'tcp');
    expect(p.total).toBe(tcp.filter((s) => s.status === 'up').length);
    expect(p.items.every((i) => i.status === 'up' && i.type === 'tcp')).toBe(true);
    expect(Object.values(p.counts).reduce((a, b) => a + b)).toBe(tcp.length);
    expect(p.all).toBe(600);
    expect(p.down).toBe(100);
    expect(p.tags).toEqual(['even', 'odd']);
    expect(p.types).toEqual(['http', 'tcp']);
    const text = m.page({ q: '  SVC-42.EX ' });
    expect(text.items.map((i) => i.id)).toEqual([42]);
    expect(text.total).toBe(1);
  });

  it('sends compact rows: no definition timestamps or interval', () => {
    const m = model(3);
    const [row] = m.page({ limit: 1 }).items;
    expect(Object.keys(row!).sort()).toEqual(
      [
        'id',
        'lastCheck',
        'name',
        'paused',
        'recent',
        'status',
        'statusChangedAt',
        'tags',
        'target',
        'type',
        'uptime24h',
      ].sort(),
    );
  });

  it('refuses a cursor it did not give out', () => {
    const m = model(3);
    expect(() => m.page({ cursor: 'not-a-cursor' })).toThrow(/fields need attention/);
  });
});
