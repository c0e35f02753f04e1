import type { MonitorStatus, MonitorSummary, MonitorType } from '@pagewatch/contract';
import { statusMeta } from './components/status';

export const sortOptions = [
  { value: 'status', label: 'Worst status' },
  { value: 'name', label: 'Name' },
  { value: 'latency', label: 'Slowest' },
  { value: 'uptime', label: 'Lowest uptime' },
  { value: 'changed', label: 'Recently changed' },
] as const;
export type SortKey = (typeof sortOptions)[number]['value'];

export interface DashboardFilter {
  status: MonitorStatus | null;
  tag: string | null;
  type: MonitorType | null;
  query: string;
  sort: SortKey;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function matchesQuery(m: MonitorSummary, needle: string): boolean {
  if (!needle) return true;
  return (
    m.name.toLowerCase().includes(needle) ||
    m.target.toLowerCase().includes(needle) ||
    m.tags.some((t) => t.toLowerCase().includes(needle))
  );
}

const byName = (a: MonitorSummary, b: MonitorSummary) => collator.compare(a.name, b.name);
/** Unknown values sort last whichever the direction. */
const nullsLast = (a: number | null, b: number | null, desc: boolean) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : desc ? b - a : a - b;

const comparators: Record<SortKey, (a: MonitorSummary, b: MonitorSummary) => number> = {
  status: (a, b) => statusMeta[a.status].rank - statusMeta[b.status].rank || byName(a, b),
  name: byName,
  latency: (a, b) =>
    nullsLast(a.lastCheck?.latencyMs ?? null, b.lastCheck?.latencyMs ?? null, true) || byName(a, b),
  uptime: (a, b) => nullsLast(a.uptime24h, b.uptime24h, false) || byName(a, b),
  changed: (a, b) =>
    nullsLast(
      a.statusChangedAt ? Date.parse(a.statusChangedAt) : null,
      b.statusChangedAt ? Date.parse(b.statusChangedAt) : null,
      true,
    ) || byName(a, b),
};

/** Monitors matching tag, type and text, before the status filter: the chips count these. */
export function filterByTagAndQuery(
  items: readonly MonitorSummary[],
  filter: Pick<DashboardFilter, 'tag' | 'query'> & { type?: MonitorType | null },
): MonitorSummary[] {
  const needle = filter.query.trim().toLowerCase();
  const type = filter.type ?? null;
  return items.filter(
    (m) =>
      (filter.tag === null || m.tags.includes(filter.tag)) &&
      (type === null || m.type === type) &&
      matchesQuery(m, needle),
  );
}

export function applyStatusAndSort(
  items: readonly MonitorSummary[],
  filter: Pick<DashboardFilter, 'status' | 'sort'>,
): MonitorSummary[] {
  const shown =
    filter.status === null ? [...items] : items.filter((m) => m.status === filter.status);
  return shown.sort(comparators[filter.sort]);
}

export function countByStatus(items: readonly MonitorSummary[]): Record<MonitorStatus, number> {
  const counts: Record<MonitorStatus, number> = {
    pending: 0,
    up: 0,
    degraded: 0,
    down: 0,
    paused: 0,
    maintenance: 0,
  };
  for (const m of items) counts[m.status]++;
  return counts;
}

export function allTags(items: readonly MonitorSummary[]): string[] {
  const tags = new Set<string>();
  for (const m of items) for (const t of m.tags) tags.add(t);
  return [...tags].sort(collator.compare);
}

/** The monitor types present, in a stable order, for the type filter. */
export function allTypes(items: readonly MonitorSummary[]): MonitorType[] {
  const types = new Set<MonitorType>();
  for (const m of items) types.add(m.type);
  return [...types].sort();
}
