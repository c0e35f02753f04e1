import { windowMs, type StatsWindow } from '@pagewatch/contract';

/** Chart bucket per window: about 60–120 points whatever the window. */
const bucketMs: Record<StatsWindow, number> = {
  '1h': 60_000,
  '24h': 15 * 60_000,
  '7d': 2 * 3_600_000,
  '30d': 6 * 3_600_000,
  '90d': 86_400_000,
};

export interface WindowRange {
  from: number;
  to: number;
  bucketMs: number;
}

/** The window ending now, its start aligned to a bucket so charts don't jitter between reloads. */
export function windowRange(window: StatsWindow, now: number): WindowRange {
  const size = bucketMs[window];
  const from = Math.floor((now - windowMs[window]) / size) * size + size;
  return { from, to: now, bucketMs: size };
}

export const HOUR_MS = 3_600_000;
export const hourBucket = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS;
