import { LatencySketch } from '../../domain/latency-sketch.js';
import { coarsestSpans, mergeStoredSketch } from '../../domain/rollup.js';
import {
  burnLookbacks,
  evaluateSlo,
  sloRange,
  type BucketCounts,
  tallyOf,
  type MonitorCounters,
  type SloEvaluation,
  type SloRange,
  type SloTally,
  type WindowTally,
} from '../../domain/slo/index.js';
import type { StoredSlo } from '../../db/repositories/slos.js';
import type { Availability } from '../../domain/availability/index.js';
import { availabilityOver, type AvailabilityDeps } from '../availability/over.js';
import { closedMinute, loadCounters } from './counters.js';
import type { ResolvedSubject } from './subjects.js';

const HOUR = 3_600_000;
const lookbacks = [...new Set([...burnLookbacks, HOUR])];

/** Where live counters come from when this process runs the evaluator (ADR 53). */
export interface CounterSource {
  countersOf(monitorId: number): MonitorCounters | undefined;
}

export type FigureDeps = AvailabilityDeps & { sloCounters?: CounterSource | null };

/**
 * The window's tally from the one availability computation (ADR 54): maintenance and
 * corrections left out as the SLO says. Several monitors (a tag) weigh their downtime by
 * their checks, so one monitor's figure is exactly its availability's.
 */
async function windowTallies(
  deps: FigureDeps,
  slos: readonly StoredSlo[],
  subjects: Map<number, ResolvedSubject>,
  ranges: Map<number, SloRange>,
): Promise<Map<number, WindowTally>> {
  const groups = new Map<string, StoredSlo[]>();
  for (const s of slos) {
    const r = ranges.get(s.id)!;
    const key = `${r.start}:${r.end}:${s.countDegraded}:${s.excludeMaintenance}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const created = await deps.repos.slos.firstHours([
    ...new Set(slos.flatMap((s) => subjects.get(s.id)?.monitorIds ?? [])),
  ]);
  const out = new Map<number, WindowTally>();
  for (const group of groups.values()) {
    const first = group[0]!;
    const r = ranges.get(first.id)!;
    const ids = [...new Set(group.flatMap((s) => subjects.get(s.id)?.monitorIds ?? []))];
    const policy = {
      degradedCountsAsDown: first.countDegraded,
      excludeMaintenance: first.excludeMaintenance,
    };
    // A monitor whose history is younger than the window is measured from its first hour: an
    // hour of checks is not spread over 30 days of downtime.
    const figures = new Map<number, Availability>();
    const byStart = new Map<number, number[]>();
    for (const id of ids) {
      const start = Math.max(r.start, Math.min(created.get(id) ?? r.start, r.end));
      byStart.set(start, [...(byStart.get(start) ?? []), id]);
    }
    for (const [start, some] of byStart) {
      const got = await availabilityOver(deps, some, [{ start, end: r.end }], policy);
      for (const [id, a] of got) if (a.periods[0]) figures.set(id, a.periods[0]);
    }
    for (const s of group) {
      let checks = 0;
      let bad = 0;
      let weighted = 0;
      for (const id of subjects.get(s.id)?.monitorIds ?? []) {
        const a = figures.get(id);
        if (!a) continue;
        const b = a.down + (s.countDegraded ? a.degraded : 0);
        checks += a.checks;
        bad += b;
        weighted += a.downtimeMs * a.checks;
      }
      out.set(s.id, { checks, bad, downtimeMs: checks === 0 ? 0 : Math.round(weighted / checks) });
    }
  }
  return out;
}

/** The latency at the objective's percentile over the window, merged from the rollup sketches. */
export async function latencyAt(
  deps: FigureDeps,
  monitorIds: readonly number[],
  range: SloRange,
  now: number,
  percent: number,
): Promise<number | null> {
  const sketch = new LatencySketch();
  const to = Math.min(range.end, now) - 60_000;
  for (const id of monitorIds) {
    const rows = await deps.repos.rollups.sketches(id, coarsestSpans('minute', range.start, to));
    for (const row of rows) mergeStoredSketch(sketch, row);
  }
  const us = sketch.quantile(percent / 100);
  return us === null ? null : Math.round(us) / 1000;
}

/** Counters for these monitors: the evaluator's live ones where it runs here, else read. */
async function countersFor(
  deps: FigureDeps,
  monitorIds: readonly number[],
  closedTo: number,
): Promise<Map<number, MonitorCounters>> {
  const out = new Map<number, MonitorCounters>();
  const missing: number[] = [];
  for (const id of monitorIds) {
    const live = deps.sloCounters?.countersOf(id);
    if (live) out.set(id, live);
    else missing.push(id);
  }
  for (const [id, c] of await loadCounters(deps, missing, closedTo)) out.set(id, c);
  return out;
}

/** Burn-rate lookback tallies of one SLO from its monitors' counters. */
export function lookbackTallies(
  slo: Pick<StoredSlo, 'countDegraded'>,
  monitorIds: readonly number[],
  counters: (id: number) => MonitorCounters | undefined,
  closedTo: number,
): Map<number, SloTally> {
  const out = new Map<number, SloTally>();
  for (const ms of lookbacks) {
    // A loop, not flatMap and a sum: this runs for every SLO every minute (ADR 53).
    let sum: BucketCounts = { checks: 0, degraded: 0, down: 0 };
    for (const id of monitorIds) {
      const c = counters(id)?.counts(ms, closedTo);
      if (!c) continue;
      if (monitorIds.length === 1) sum = c;
      else {
        sum.checks += c.checks;
        sum.degraded += c.degraded;
        sum.down += c.down;
      }
    }
    out.set(ms, tallyOf(sum, slo.countDegraded));
  }
  return out;
}

/** Every SLO's standing now: attainment, budget, burn rate and its rules. */
export async function evaluateSlos(
  deps: FigureDeps,
  slos: readonly StoredSlo[],
  subjects: Map<number, ResolvedSubject>,
): Promise<Map<number, SloEvaluation>> {
  const now = deps.clock.now();
  const closedTo = closedMinute(now);
  const ranges = new Map(slos.map((s) => [s.id, sloRange(s.window, s.timeZone, now)]));
  const allIds = [...new Set(slos.flatMap((s) => subjects.get(s.id)?.monitorIds ?? []))];
  const [tallies, counters] = await Promise.all([
    windowTallies(deps, slos, subjects, ranges),
    countersFor(deps, allIds, closedTo),
  ]);
  const out = new Map<number, SloEvaluation>();
  for (const s of slos) {
    const ids = subjects.get(s.id)?.monitorIds ?? [];
    const range = ranges.get(s.id)!;
    out.set(
      s.id,
      evaluateSlo({
        target: s.target,
        latency: s.latency,
        range,
        now,
        window: tallies.get(s.id) ?? { checks: 0, bad: 0, downtimeMs: 0 },
        lookbacks: lookbackTallies(s, ids, (id) => counters.get(id), closedTo),
        latencyObservedMs: s.latency
          ? await latencyAt(deps, ids, range, now, s.latency.percent)
          : null,
      }),
    );
  }
  return out;
}
