import { windowMs, type StatsWindow } from '@pagewatch/contract';
import { levelMs, rollupLevels, type RollupLevel } from './rollup.js';

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
  /** The coarsest rollup whose buckets tile both the window and its chart buckets. */
  rollup: RollupLevel;
}

/** Coarsest level whose granularity divides `size` (1 h → minute, 7 d → hour, 90 d → day). */
export function coarsestLevel(size: number): RollupLevel {
  const fits = rollupLevels.filter((l) => size % levelMs[l] === 0);
  const level = fits.at(-1);
  if (!level) throw new Error(`No rollup tiles buckets of ${size} ms`);
  return level;
}

/** The window ending now, its start aligned to a bucket so charts don't jitter between reloads. */
export function windowRange(window: StatsWindow, now: number): WindowRange {
  const size = bucketMs[window];
  const from = Math.floor((now - windowMs[window]) / size) * size + size;
  return { from, to: now, bucketMs: size, rollup: coarsestLevel(size) };
}

export const HOUR_MS = 3_600_000;
export const hourBucket = (at: number): number => Math.floor(at / HOUR_MS) * HOUR_MS;
