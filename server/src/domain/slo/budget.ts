/** Checks over a range as an SLO counts them, exclusions already taken out. */
export interface SloTally {
  checks: number;
  /** Checks that spend budget: down, and degraded when the SLO says so. */
  bad: number;
}

/** Counted checks plus the failed share of the counted time (availability's downtime). */
export interface WindowTally extends SloTally {
  downtimeMs: number;
}

export interface ErrorBudget {
  /** The failure the target allows over the whole window: (1 − target) × its length. */
  budgetMs: number;
  spentMs: number;
  /** Negative once overspent. */
  remainingMs: number;
  remainingPercent: number;
}

/** The failed share the target allows, e.g. 0.001 for 99.9 %. */
export const allowedFailure = (target: number): number => 1 - target / 100;

/** Good checks' share in percent, three decimals; null without checks. */
export const attainment = (t: SloTally): number | null =>
  t.checks === 0 ? null : Math.round(((t.checks - t.bad) / t.checks) * 100_000) / 1000;

/**
 * The budget is time: a 99.9 % monthly SLO over 30 days allows 43.2 minutes of failure. What
 * is spent is the downtime so far; a calendar window's budget is the whole month's, so the
 * first days' failures spend it as the month goes on.
 */
export function errorBudget(target: number, lengthMs: number, spent: WindowTally): ErrorBudget {
  const budgetMs = allowedFailure(target) * lengthMs;
  const remainingMs = budgetMs - spent.downtimeMs;
  return {
    budgetMs: Math.round(budgetMs),
    spentMs: spent.downtimeMs,
    remainingMs: Math.round(remainingMs),
    remainingPercent: Math.round((remainingMs / budgetMs) * 100_000) / 1000,
  };
}

/**
 * How fast a range spends budget: its failed share over the allowed share. At 1 the budget
 * lasts exactly the window; at 14.4 a 30-day budget is gone in 50 hours. Null without checks.
 */
export function burnRate(target: number, t: SloTally): number | null {
  if (t.checks === 0) return null;
  return t.bad / t.checks / allowedFailure(target);
}

/**
 * How long the remaining budget lasts at `burn`: each hour at burn rate b spends
 * b × (1 − target) hours of budget. Zero when spent; null when nothing burns.
 */
export function timeToExhaustion(
  target: number,
  remainingMs: number,
  burn: number | null,
): number | null {
  if (remainingMs <= 0) return 0;
  if (burn === null || burn <= 0) return null;
  return Math.round(remainingMs / (burn * allowedFailure(target)));
}
