import type { LatencyObjective, SloHealth, SloStatus } from '@pagewatch/contract';
import {
  attainment,
  burnRate,
  errorBudget,
  timeToExhaustion,
  type SloTally,
  type WindowTally,
} from './budget.js';
import { readRules, type BurnRuleSpec, type RuleReading } from './burn-rules.js';
import type { SloRange } from './window.js';

const HOUR = 3_600_000;
/** Below this share of budget left an SLO shows as at risk even when nothing burns fast. */
export const AT_RISK_PERCENT = 25;

export interface SloEvaluationInput {
  target: number;
  latency: LatencyObjective | null;
  range: SloRange;
  now: number;
  window: WindowTally;
  /** Tallies of the burn-rate lookbacks (1 h among them), keyed by length in ms. */
  lookbacks: ReadonlyMap<number, SloTally>;
  /** The latency at the objective's percentile over the window; null without timed checks. */
  latencyObservedMs: number | null;
  rules?: readonly BurnRuleSpec[];
}

export interface SloEvaluation {
  status: SloStatus;
  readings: RuleReading[];
}

function healthOf(
  t: WindowTally,
  remainingPercent: number,
  readings: readonly RuleReading[],
  latencyMet: boolean | null,
): SloHealth {
  if (t.checks === 0) return 'no_data';
  if (remainingPercent <= 0) return 'exhausted';
  if (
    remainingPercent < AT_RISK_PERCENT ||
    readings.some((r) => r.breached) ||
    latencyMet === false
  )
    return 'at_risk';
  return 'healthy';
}

/** An SLO's standing now: attainment, budget, burn rate, time to exhaustion and its rules. */
export function evaluateSlo(input: SloEvaluationInput): SloEvaluation {
  const { target, range, window: t } = input;
  const budget = errorBudget(target, range.lengthMs, t);
  const hour = input.lookbacks.get(HOUR);
  const burn = hour ? burnRate(target, hour) : null;
  const readings = readRules(target, range.lengthMs, input.lookbacks, input.rules);
  const latency = input.latency
    ? {
        observedMs: input.latencyObservedMs,
        met:
          input.latencyObservedMs === null
            ? null
            : input.latencyObservedMs <= input.latency.thresholdMs,
      }
    : null;
  const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
  return {
    readings,
    status: {
      from: new Date(range.start).toISOString(),
      to: new Date(range.end).toISOString(),
      checks: t.checks,
      badChecks: t.bad,
      attainment: attainment(t),
      ...budget,
      burnRate: round(burn),
      exhaustionMs: timeToExhaustion(target, budget.remainingMs, burn),
      health: healthOf(t, budget.remainingPercent, readings, latency?.met ?? null),
      rules: readings.map((r) => ({
        budgetPercent: r.budgetPercent,
        longMs: r.longMs,
        shortMs: r.shortMs,
        severity: r.severity,
        threshold: round(r.threshold)!,
        longBurn: round(r.longBurn),
        shortBurn: round(r.shortBurn),
        breached: r.breached,
      })),
      latency,
    },
  };
}
