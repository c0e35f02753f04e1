import {
  availability,
  clipIntervals,
  countsInSpans,
  defaultPolicy,
  exclusions,
  maintenanceByMonitor,
  mergeIntervals,
  noCounts,
  addCounts,
  readSpans,
  uniqueSpans,
  toBuckets,
  type Availability,
  type AvailabilityPolicy,
  type CountedBucket,
  type Interval,
} from '../../domain/availability/index.js';
import { levelMs } from '../../domain/rollup.js';
import type { CorrectionRecord } from '../../db/repositories/availability.js';
import type { ServiceDeps } from '../deps.js';

const DAY_MS = 86_400_000;

export type AvailabilityDeps = Pick<ServiceDeps, 'repos' | 'clock' | 'settings'>;

/** A monitor's availability per period, and what was left out of it. */
export interface MonitorAvailability {
  monitorId: number;
  periods: Availability[];
  /** Maintenance over the whole request, merged (empty when the policy counts it). */
  maintenance: Interval[];
  corrections: CorrectionRecord[];
}

const groupBy = <T>(list: readonly T[], key: (t: T) => number): Map<number, T[]> => {
  const out = new Map<number, T[]>();
  for (const t of list) {
    const l = out.get(key(t));
    if (l) l.push(t);
    else out.set(key(t), [t]);
  }
  return out;
};

/**
 * The one availability computation over stored history (ADR 54): the API's stats, the
 * dashboard, status pages, reports and SLOs all call this. Counts come from the rollups that
 * tile each period; excluded periods' checks are read from the minute rollups (hours where
 * minutes have expired) and taken out. A period's end may lie ahead: it counts time to now.
 */
export async function availabilityOver(
  deps: AvailabilityDeps,
  monitorIds: readonly number[],
  periods: readonly Interval[],
  policy: AvailabilityPolicy = defaultPolicy,
  /** The monitors' buckets over the periods, when the caller has read them already. */
  counted?: readonly CountedBucket[],
): Promise<Map<number, MonitorAvailability>> {
  const out = new Map<number, MonitorAvailability>();
  if (monitorIds.length === 0 || periods.length === 0) return out;
  const now = deps.clock.now();
  const whole = {
    start: Math.min(...periods.map((p) => p.start)),
    end: Math.max(...periods.map((p) => p.end)),
  };
  const [rows, windows, corrections, retention] = await Promise.all([
    counted ?? deps.repos.availability.counts(monitorIds, uniqueSpans(readSpans(periods))),
    policy.excludeMaintenance ? deps.repos.maintenance.list() : Promise.resolve([]),
    deps.repos.availability.corrections(monitorIds, whole.start, whole.end),
    deps.settings?.get('retention'),
  ]);
  const maintenance = maintenanceByMonitor(windows, monitorIds, whole);
  const correctionsOf = groupBy(corrections, (c) => c.monitorId);
  const rowsOf = groupBy(rows, (r) => r.monitorId);
  // Minutes are gone after their retention: older exclusions take out whole hours.
  const minutesFrom = now - (retention?.minuteRollupDays ?? 90) * DAY_MS;
  const bucketed = (list: Interval[]) =>
    mergeIntervals([
      ...toBuckets(
        list.filter((i) => i.start >= minutesFrom),
        levelMs.minute,
      ),
      ...toBuckets(
        list.filter((i) => i.start < minutesFrom),
        levelMs.hour,
      ),
    ]);

  // Per monitor and period: the exact exclusions and the buckets whose checks they remove.
  const plans = monitorIds.map((id) => {
    const maint = maintenance.get(id) ?? [];
    const corr = (correctionsOf.get(id) ?? []).map((c) => ({ start: c.startsAt, end: c.endsAt }));
    const per = periods.map((p) => {
      const ex = exclusions(p, maint, corr, policy);
      return { period: p, maint, corr, buckets: clipIntervals(bucketed(ex), p) };
    });
    return { id, per };
  });
  const excludedRows = await readExcluded(deps, plans);

  for (const { id, per } of plans) {
    const mine = rowsOf.get(id) ?? [];
    const exRows = excludedRows.get(id) ?? [];
    const results = per.map(({ period, maint, corr, buckets }) => {
      const excludedCounts = noCounts();
      for (const b of buckets) addCounts(excludedCounts, countsInSpans(exRows, readSpans([b])));
      const range = { start: period.start, end: Math.max(period.start, Math.min(period.end, now)) };
      return availability(
        {
          range,
          counts: countsInSpans(mine, readSpans([period])),
          excludedCounts,
          maintenance: maint,
          corrections: corr,
        },
        policy,
      );
    });
    out.set(id, {
      monitorId: id,
      periods: results,
      maintenance: policy.excludeMaintenance ? (maintenance.get(id) ?? []) : [],
      corrections: correctionsOf.get(id) ?? [],
    });
  }
  return out;
}

/** Reads the excluded buckets' counts, one read per distinct set of exclusions. */
async function readExcluded(
  deps: AvailabilityDeps,
  plans: { id: number; per: { buckets: Interval[] }[] }[],
): Promise<Map<number, CountedBucket[]>> {
  const bySet = new Map<string, { ids: number[]; buckets: Interval[] }>();
  for (const { id, per } of plans) {
    const buckets = per.flatMap((p) => p.buckets);
    if (buckets.length === 0) continue;
    const key = buckets.map((b) => `${b.start}-${b.end}`).join(',');
    const set = bySet.get(key);
    if (set) set.ids.push(id);
    else bySet.set(key, { ids: [id], buckets });
  }
  const out = new Map<number, CountedBucket[]>();
  for (const { ids, buckets } of bySet.values()) {
    const rows = await deps.repos.availability.counts(ids, uniqueSpans(readSpans(buckets)));
    for (const [id, list] of groupBy(rows, (r) => r.monitorId)) out.set(id, list);
  }
  return out;
}

/** One monitor over one range. */
export async function availabilityOf(
  deps: AvailabilityDeps,
  monitorId: number,
  range: Interval,
  policy: AvailabilityPolicy = defaultPolicy,
): Promise<Availability> {
  const result = await availabilityOver(deps, [monitorId], [range], policy);
  const a = result.get(monitorId)?.periods[0];
  if (!a) throw new Error('availabilityOver returned no period');
  return a;
}
