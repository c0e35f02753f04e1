/** Nearest-rank percentile of an ascending array; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** Percent of checks that delivered (up or degraded); null without checks. */
export function uptimePercent(up: number, degraded: number, checks: number): number | null {
  if (checks === 0) return null;
  return Math.round(((up + degraded) / checks) * 100_000) / 1000;
}
