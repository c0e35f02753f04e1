import { hourBucket, HOUR_MS } from '../../domain/windows.js';
import { availabilityOver, type AvailabilityDeps } from './over.js';

/**
 * The dashboard's 24 h uptime of each monitor: the last 24 whole hours and the current one
 * (24–25 h, read from the hourly rollup), through the one computation.
 */
export async function uptime24h(
  deps: AvailabilityDeps,
  monitorIds: readonly number[],
): Promise<Map<number, number | null>> {
  const hour = hourBucket(deps.clock.now());
  const range = { start: hour - 24 * HOUR_MS, end: hour + HOUR_MS };
  const result = await availabilityOver(deps, monitorIds, [range]);
  const out = new Map<number, number | null>();
  for (const [id, a] of result) out.set(id, a.periods[0]?.uptime ?? null);
  return out;
}
