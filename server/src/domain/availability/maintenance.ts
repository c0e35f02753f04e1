import { Timeline } from '../maintenance/occurrences.js';
import type { MaintenanceRecord } from '../maintenance/window.js';
import { mergeIntervals, type Interval } from './intervals.js';

type WindowLike = Pick<MaintenanceRecord, 'timezone' | 'schedule' | 'scope' | 'cancelledAt'>;

/**
 * Monitor → the maintenance it was under within a range, merged. A cancelled window still
 * covered the time before it was cancelled: history does not change when a window is.
 */
export function maintenanceByMonitor(
  windows: readonly WindowLike[],
  monitorIds: readonly number[],
  range: Interval,
): Map<number, Interval[]> {
  const all: Interval[] = [];
  const some = new Map<number, Interval[]>();
  for (const w of windows) {
    const end = Math.min(range.end, w.cancelledAt ?? Infinity);
    if (end <= range.start) continue;
    const occ = new Timeline(w)
      .between(range.start, end)
      .map((o) => ({ start: o.start, end: Math.min(o.end, end) }));
    if (occ.length === 0) continue;
    if (w.scope.kind === 'all') all.push(...occ);
    else {
      for (const id of w.scope.monitorIds) {
        const list = some.get(id) ?? [];
        list.push(...occ);
        some.set(id, list);
      }
    }
  }
  const out = new Map<number, Interval[]>();
  for (const id of monitorIds) out.set(id, mergeIntervals([...all, ...(some.get(id) ?? [])]));
  return out;
}
