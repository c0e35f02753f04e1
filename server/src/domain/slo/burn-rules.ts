import { burnRate, type SloTally } from './budget.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A multi-window burn-rate rule (SRE workbook, ch. 5): both windows must burn this fast. */
export interface BurnRuleSpec {
  /** Share of the whole window's budget spent within `longMs`. */
  budgetPercent: number;
  longMs: number;
  /** A twelfth of the long window: the alert resolves soon after the burning stops. */
  shortMs: number;
  severity: 'page' | 'ticket';
}

/** The workbook's defaults: 2 % in 1 h and 5 % in 6 h page; 10 % in 3 days opens a ticket. */
export const defaultBurnRules: readonly BurnRuleSpec[] = [
  { budgetPercent: 2, longMs: HOUR, shortMs: 5 * MINUTE, severity: 'page' },
  { budgetPercent: 5, longMs: 6 * HOUR, shortMs: 30 * MINUTE, severity: 'page' },
  { budgetPercent: 10, longMs: 72 * HOUR, shortMs: 6 * HOUR, severity: 'ticket' },
];

/** Every lookback the default rules read, shortest first. */
export const burnLookbacks: readonly number[] = [
  ...new Set(defaultBurnRules.flatMap((r) => [r.longMs, r.shortMs])),
].sort((a, b) => a - b);

/**
 * The burn rate that spends `budgetPercent` of a window's budget in `longMs`: 2 % of a 30-day
 * budget in one hour is 0.02 × 720 h / 1 h = 14.4.
 */
export const ruleThreshold = (rule: BurnRuleSpec, windowMs: number): number =>
  (rule.budgetPercent / 100) * (windowMs / rule.longMs);

export interface RuleReading extends BurnRuleSpec {
  threshold: number;
  longBurn: number | null;
  shortBurn: number | null;
  breached: boolean;
}

/** Reads each rule against the tallies of its windows (keyed by lookback in ms). */
export function readRules(
  target: number,
  windowMs: number,
  tallies: ReadonlyMap<number, SloTally>,
  rules: readonly BurnRuleSpec[] = defaultBurnRules,
): RuleReading[] {
  // Every SLO every minute: plain fields, no closures or spreads (ADR 53's 1 % CPU budget).
  return rules.map((rule) => {
    const threshold = ruleThreshold(rule, windowMs);
    const long = tallies.get(rule.longMs);
    const short = tallies.get(rule.shortMs);
    const longBurn = long ? burnRate(target, long) : null;
    const shortBurn = short ? burnRate(target, short) : null;
    const breached =
      longBurn !== null && shortBurn !== null && longBurn >= threshold && shortBurn >= threshold;
    return {
      budgetPercent: rule.budgetPercent,
      longMs: rule.longMs,
      shortMs: rule.shortMs,
      severity: rule.severity,
      threshold,
      longBurn,
      shortBurn,
      breached,
    };
  });
}

/** The most severe breached rule (pages before tickets, faster windows first); null if none. */
export function worstBreach(readings: readonly RuleReading[]): RuleReading | null {
  return (
    readings.find((r) => r.breached && r.severity === 'page') ??
    readings.find((r) => r.breached) ??
    null
  );
}

/** What an SLO's alert state is: nothing firing, or firing at a severity. */
export type BurnAlertState = null | 'page' | 'ticket';

export type BurnAlertDecision =
  | { kind: 'none'; state: BurnAlertState }
  | { kind: 'fire'; state: 'page' | 'ticket'; rule: RuleReading }
  | { kind: 'resolve'; state: null };

/**
 * One alert per breach: it fires when a rule first breaches, fires again only if a ticket
 * becomes a page, and resolves when no rule is breached any more. A page calming to a ticket
 * stays one open alert.
 */
export function decideBurnAlert(
  state: BurnAlertState,
  readings: readonly RuleReading[],
): BurnAlertDecision {
  const worst = worstBreach(readings);
  if (!worst) return state === null ? { kind: 'none', state } : { kind: 'resolve', state: null };
  if (state === null || (state === 'ticket' && worst.severity === 'page')) {
    return { kind: 'fire', state: worst.severity, rule: worst };
  }
  return { kind: 'none', state };
}
