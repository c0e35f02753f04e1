import type { ReportSlo } from '@pagewatch/contract';
import type { Interval } from '../../domain/availability/index.js';
import { availabilityOver } from '../availability/over.js';
import type { ServiceDeps } from '../deps.js';
import { latencyAt } from '../slos/figures.js';
import { resolveSubjects } from '../slos/subjects.js';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The SLOs a report states as met or missed (ADR 71): every SLO whose monitors are all among
 * the report's, judged over the report's range with the SLO's own rules. A tag report thus
 * carries the tag's SLO and its monitors' SLOs; a monitor report its monitor's and components'.
 */
export async function reportSlos(
  deps: ServiceDeps,
  monitorIds: readonly number[],
  range: Interval,
): Promise<ReportSlo[]> {
  const all = await deps.repos.slos.list();
  if (all.length === 0 || monitorIds.length === 0) return [];
  const inReport = new Set(monitorIds);
  const subjects = await resolveSubjects(deps, all);
  const slos = all.filter((s) => {
    const ids = subjects.get(s.id)?.monitorIds ?? [];
    return ids.length > 0 && ids.every((id) => inReport.has(id));
  });
  const now = deps.clock.now();
  // One read per policy, not per SLO: a tag report may carry an SLO for each of its monitors.
  const figures = new Map<string, Awaited<ReturnType<typeof availabilityOver>>>();
  const keyOf = (s: (typeof slos)[number]) => `${s.countDegraded}:${s.excludeMaintenance}`;
  for (const key of new Set(slos.map(keyOf))) {
    const some = slos.filter((s) => keyOf(s) === key);
    const ids = [...new Set(some.flatMap((s) => subjects.get(s.id)!.monitorIds))];
    const policy = {
      degradedCountsAsDown: some[0]!.countDegraded,
      excludeMaintenance: some[0]!.excludeMaintenance,
    };
    figures.set(key, await availabilityOver(deps, ids, [range], policy));
  }
  const out: ReportSlo[] = [];
  for (const s of slos) {
    const ids = subjects.get(s.id)!.monitorIds;
    let checks = 0;
    let bad = 0;
    for (const id of ids) {
      const a = figures.get(keyOf(s))?.get(id)?.periods[0];
      if (!a) continue;
      checks += a.checks;
      bad += a.down + (s.countDegraded ? a.degraded : 0);
    }
    const attainment = checks === 0 ? null : round3(((checks - bad) / checks) * 100);
    let latency: ReportSlo['latency'] = null;
    if (s.latency) {
      const observedMs =
        range.start >= now
          ? null
          : await latencyAt(
              deps,
              ids,
              { ...range, lengthMs: range.end - range.start },
              now,
              s.latency.percent,
            );
      latency = {
        percent: s.latency.percent,
        thresholdMs: s.latency.thresholdMs,
        observedMs,
        met: observedMs === null ? null : observedMs <= s.latency.thresholdMs,
      };
    }
    out.push({
      id: s.id,
      name: s.name,
      subjectLabel: subjects.get(s.id)!.label,
      target: s.target,
      window: s.window,
      checks,
      badChecks: bad,
      attainment,
      latency,
      // Judged on the exact share: 99.8996 % misses a 99.9 % target though it prints as 99.9.
      met:
        checks === 0 ? null : (checks - bad) / checks >= s.target / 100 && latency?.met !== false,
    });
  }
  return out;
}
