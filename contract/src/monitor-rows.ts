import { z } from 'zod';
import { MonitorStatus, MonitorSummary, MonitorType } from './monitors.js';

/** Orders of the dashboard list; each breaks ties by name, then id. */
export const MonitorRowSort = z.enum(['status', 'name', 'latency', 'uptime', 'changed']);
export type MonitorRowSort = z.infer<typeof MonitorRowSort>;

/** Worst first: the `status` order of the dashboard. */
export const statusRank: Record<MonitorStatus, number> = {
  down: 0,
  regional: 1,
  degraded: 2,
  unknown: 3,
  pending: 4,
  maintenance: 5,
  up: 6,
  paused: 7,
};

/** One page of the dashboard list: filters and order are applied by the server. */
export const MonitorRowsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** `nextCursor` of the previous page, for the same filters and order. */
  cursor: z.string().max(2048).optional(),
  status: MonitorStatus.optional(),
  tag: z.string().max(100).optional(),
  type: MonitorType.optional(),
  /** Case-insensitive text in the name, target or a tag. */
  q: z.string().max(200).optional(),
  sort: MonitorRowSort.default('status'),
});
export type MonitorRowsQuery = z.infer<typeof MonitorRowsQuery>;

/** What a dashboard row shows: a summary without its definition's timestamps and interval. */
export const MonitorRow = MonitorSummary.omit({ createdAt: true, updatedAt: true, interval: true });
export type MonitorRow = z.infer<typeof MonitorRow>;

export const MonitorRowPage = z.object({
  items: z.array(MonitorRow),
  /** The cursor of the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /** Rows matching every filter, across all pages. */
  total: z.number().int(),
  /** Rows matching tag, type and text by status (before the status filter): the chips. */
  counts: z.record(MonitorStatus, z.number().int()),
  /** Every monitor, and how many are down, whatever the filters (the page title). */
  all: z.number().int(),
  down: z.number().int(),
  /** Tags and types present among all monitors, for the filter menus. */
  tags: z.array(z.string()),
  types: z.array(MonitorType),
});
export type MonitorRowPage = z.infer<typeof MonitorRowPage>;

/** Every monitor by name, for pickers: a fraction of the full list's size. */
export const MonitorNames = z.object({
  items: z.array(z.object({ id: z.number().int(), name: z.string(), target: z.string() })),
});
export type MonitorNames = z.infer<typeof MonitorNames>;
