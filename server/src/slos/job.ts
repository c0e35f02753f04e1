import type { AlertEvent } from '@pagewatch/contract';
import {
  decideBurnAlert,
  readRules,
  sloRange,
  type BurnAlertDecision,
} from '../domain/slo/index.js';
import type { StoredSlo } from '../db/repositories/slos.js';
import type { Logger } from '../lib/logger.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';
import type { ServiceDeps } from '../services/deps.js';
import { closedMinute, loadCounters, readMinutes } from '../services/slos/counters.js';
import { evaluateSlos, lookbackTallies } from '../services/slos/figures.js';
import { resolveSubjects, subjectMonitorIds } from '../services/slos/subjects.js';
import type { SloCounterStore } from './store.js';

const MINUTE = 60_000;

export interface SloJobOptions {
  /** How often SLOs are evaluated; burn-rate alerts are at most this late. */
  tickMs: number;
}

type JobDeps = Pick<ServiceDeps, 'repos' | 'clock' | 'settings'>;

/**
 * The burn-rate evaluator (ADR 53), under the `slos` singleton lease: each tick reads only
 * the minutes closed since the last one into in-memory counters, reads each SLO's rules from
 * them, and moves an SLO's alert state with a compare-and-set that queues its alert in the
 * same transaction, so a breach is announced once and its end once.
 */
export function startSloJob(
  deps: JobDeps,
  store: SloCounterStore,
  logger: Logger,
  options: SloJobOptions,
): PeriodicJob {
  return periodicJob(() => evaluate(deps, store), {
    firstMs: 0,
    everyMs: options.tickMs,
    onError: (err) => logger.warn({ err }, 'SLOs: evaluating burn rates failed'),
  });
}

/** One pass: counters brought up to the last closed minute, every alerting SLO judged. */
export async function evaluate(deps: JobDeps, store: SloCounterStore): Promise<void> {
  const now = deps.clock.now();
  const closedTo = closedMinute(now);
  // 10,000 SLOs are not read every minute: only when one was added, edited or removed.
  const version = await deps.repos.slos.version();
  if (store.slos === null || store.slosVersion !== version) {
    store.slos = (await deps.repos.slos.list()).filter((s) => s.alerts);
    store.slosVersion = version;
  }
  const slos = store.slos;
  const subjects = await subjectMonitorIds(deps, slos);
  const wanted = new Set([...subjects.values()].flat());
  for (const id of store.counters.keys()) if (!wanted.has(id)) store.counters.delete(id);
  const known = [...wanted].filter((id) => store.counters.has(id));
  const fresh = [...wanted].filter((id) => !store.counters.has(id));
  if (known.length > 0 && closedTo > store.closedTo) {
    // The last two minutes again: a result written late into a read minute is not lost.
    const from = Math.max(store.closedTo - 2 * MINUTE, closedTo - 60 * MINUTE);
    await readMinutes(deps, store.counters, known, from, closedTo);
  }
  for (const [id, c] of await loadCounters(deps, fresh, closedTo)) store.counters.set(id, c);
  store.closedTo = closedTo;
  store.syncedAt = now;
  for (const slo of slos) {
    const tallies = lookbackTallies(
      slo,
      subjects.get(slo.id)!,
      (id) => store.counters.get(id),
      closedTo,
    );
    const { lengthMs } = sloRange(slo.window, slo.timeZone, now);
    const decision = decideBurnAlert(slo.alertState, readRules(slo.target, lengthMs, tallies));
    if (decision.kind === 'none') continue;
    if (await announce(deps, store, slo, decision)) {
      slo.alertState = decision.state;
      slo.alertSince = decision.state === null ? null : now;
    } else store.slos = null; // another evaluator moved it first: read them all again
  }
  if (slos.length > 0) deps.repos.outbox.notify();
}

async function announce(
  deps: JobDeps,
  store: SloCounterStore,
  slo: StoredSlo,
  decision: Exclude<BurnAlertDecision, { kind: 'none' }>,
): Promise<boolean> {
  const now = deps.clock.now();
  // Names only now: the message says what burns; the minute's pass needed only the monitors.
  const subject = (await resolveSubjects(deps, [slo])).get(slo.id)!;
  // The budget left and the time to exhaustion come from the same figures the screens show.
  const figures = await evaluateSlos(
    { ...deps, sloCounters: store },
    [slo],
    new Map([[slo.id, subject]]),
  );
  const status = figures.get(slo.id)!.status;
  const rule = decision.kind === 'fire' ? decision.rule : null;
  const event: AlertEvent = {
    kind: decision.kind === 'fire' ? 'slo.burning' : 'slo.recovered',
    at: new Date(now).toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
    slo: {
      id: slo.id,
      name: slo.name,
      subject: subject.label,
      target: slo.target,
      severity: decision.state,
      rule: rule && {
        budgetPercent: rule.budgetPercent,
        longMs: rule.longMs,
        shortMs: rule.shortMs,
      },
      burnRate: rule?.longBurn ?? status.burnRate,
      remainingMs: status.remainingMs,
      remainingPercent: status.remainingPercent,
      exhaustionMs: status.exhaustionMs,
    },
  };
  const moved = await deps.repos.slos.moveAlertState(slo.id, slo.alertState, decision.state, now, {
    monitorIds: subject.monitorIds,
    event,
  });
  return moved !== null;
}
