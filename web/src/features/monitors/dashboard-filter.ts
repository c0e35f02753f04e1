import type { MonitorRowSort, MonitorStatus, MonitorType } from '@pagewatch/contract';

export const sortOptions = [
  { value: 'status', label: 'Worst status' },
  { value: 'name', label: 'Name' },
  { value: 'latency', label: 'Slowest' },
  { value: 'uptime', label: 'Lowest uptime' },
  { value: 'changed', label: 'Recently changed' },
] as const satisfies readonly { value: MonitorRowSort; label: string }[];
export type SortKey = MonitorRowSort;

/** What the dashboard shows; the server filters and orders (GET /monitors/rows). */
export interface DashboardFilter {
  status: MonitorStatus | null;
  tag: string | null;
  type: MonitorType | null;
  query: string;
  sort: SortKey;
}

/** The filter's query string for one page of rows. */
export function rowsPath(filter: DashboardFilter, limit: number, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(limit), sort: filter.sort });
  if (filter.status !== null) params.set('status', filter.status);
  if (filter.tag !== null) params.set('tag', filter.tag);
  if (filter.type !== null) params.set('type', filter.type);
  const q = filter.query.trim();
  if (q !== '') params.set('q', q);
  if (cursor !== null) params.set('cursor', cursor);
  return `/monitors/rows?${params.toString()}`;
}

/** Whether the chip counts depend on more than the statuses (then only the server can count). */
export const narrowed = (f: DashboardFilter) =>
  f.tag !== null || f.type !== null || f.query.trim() !== '';
