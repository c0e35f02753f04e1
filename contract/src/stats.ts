import { z } from 'zod';

export const statsWindows = ['1h', '24h', '7d', '30d', '90d'] as const;
export const StatsWindow = z.enum(statsWindows);
export type StatsWindow = z.infer<typeof StatsWindow>;

export const windowMs: Record<StatsWindow, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
};

export const LatencySummary = z.object({
  min: z.number().nullable(),
  avg: z.number().nullable(),
  max: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});
export type LatencySummary = z.infer<typeof LatencySummary>;

/** One chart bucket: counts by outcome and mean time per phase of the checks in it. */
export const StatsBucket = z.object({
  t: z.number().int(),
  checks: z.number().int(),
  up: z.number().int(),
  degraded: z.number().int(),
  down: z.number().int(),
  latency: z.number().nullable(),
  dns: z.number().nullable(),
  connect: z.number().nullable(),
  tls: z.number().nullable(),
  ttfb: z.number().nullable(),
  download: z.number().nullable(),
});
export type StatsBucket = z.infer<typeof StatsBucket>;

export const MonitorStats = z.object({
  window: StatsWindow,
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  checks: z.number().int(),
  up: z.number().int(),
  degraded: z.number().int(),
  down: z.number().int(),
  /**
   * Share of counted checks that delivered (up or degraded), 0–100; null without checks.
   * Checks inside maintenance windows and corrections are left out (ADR 54).
   */
  uptime: z.number().nullable(),
  /** Checks left out by maintenance and corrections; `checks` excludes them. */
  excludedChecks: z.number().int(),
  /** The failed share of the window's counted time, ms. */
  downtimeMs: z.number().int(),
  latency: LatencySummary,
  bucketMs: z.number().int(),
  series: z.array(StatsBucket),
});
export type MonitorStats = z.infer<typeof MonitorStats>;

export const StatsQuery = z.strictObject({ window: StatsWindow.default('24h') });
