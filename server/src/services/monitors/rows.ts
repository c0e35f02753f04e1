import type { MonitorRowsQuery } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';
import { listMonitors } from './list.js';
import { presentSummary } from './present-summary.js';
import { indexRow, RowPager, type IndexedRow } from './row-pager.js';

/**
 * One page of the dashboard list as JSON text: from the read model where this process has one,
 * else from the database (a web-only process), paged the same way.
 */
export async function monitorRowsJson(deps: ServiceDeps, query: MonitorRowsQuery): Promise<string> {
  if (deps.summaries) return deps.summaries.pageJson(query);
  return (await pagerFromDatabase(deps)).pageJson(query, deps.clock.now());
}

/** Every monitor's id, name and target, by name, as JSON text (MonitorNames). */
export async function monitorNamesJson(deps: ServiceDeps): Promise<string> {
  if (deps.summaries) return deps.summaries.namesJson();
  return (await pagerFromDatabase(deps)).namesJson();
}

/** Ids of the monitors the dashboard shows for these filters, as the list pages them. */
export async function monitorIdsMatching(
  deps: ServiceDeps,
  filter: Parameters<RowPager['matchingIds']>[0],
): Promise<number[]> {
  if (deps.summaries) return deps.summaries.matchingIds(filter);
  return (await pagerFromDatabase(deps)).matchingIds(filter);
}

async function pagerFromDatabase(deps: ServiceDeps): Promise<RowPager> {
  const rows = new Map<number, IndexedRow>();
  for (const r of await listMonitors(deps)) {
    rows.set(r.monitor.id, indexRow(presentSummary(r.monitor, r.uptime24h, r.maintenance)));
  }
  const pager = new RowPager(rows);
  pager.changed(true);
  return pager;
}
