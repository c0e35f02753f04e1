import type { StatsBucket } from '@pagewatch/contract';

export const phases = ['dns', 'connect', 'tls', 'ttfb', 'download'] as const;
export type Phase = (typeof phases)[number];

export const phaseLabel: Record<Phase, string> = {
  dns: 'DNS',
  connect: 'Connect',
  tls: 'TLS',
  ttfb: 'First byte',
  download: 'Download',
};

/**
 * The part of a check's total no phase accounts for (redirects, the request written, the
 * check's own work), so the phases shown always add up; null when they already do (±0.5 ms).
 */
export function otherMs(check: {
  latencyMs: number | null;
  phases: Record<Phase, number | null>;
}): number | null {
  if (check.latencyMs === null) return null;
  const timed = phases.reduce((sum, p) => sum + (check.phases[p] ?? 0), 0);
  const rest = check.latencyMs - timed;
  return rest > 0.5 ? Math.round(rest * 1000) / 1000 : null;
}

export interface ChartData {
  /** The whole window in seconds, so the axis shows it even where there are no checks. */
  from: number;
  to: number;
  bucketSec: number;
  /** Bucket start, seconds since the epoch (uPlot's time unit). */
  x: number[];
  total: (number | null)[];
  /** Mean ms per phase, as served. */
  raw: Record<Phase, (number | null)[]>;
  /** Running sums dns, dns+connect, … for drawing stacked areas. */
  stacked: Record<Phase, (number | null)[]>;
  down: number[];
  degraded: number[];
}

const empty = (t: number): StatsBucket => ({
  t,
  checks: 0,
  up: 0,
  degraded: 0,
  down: 0,
  latency: null,
  dns: null,
  connect: null,
  tls: null,
  ttfb: null,
  download: null,
});

/** Accepts bucket times in ms or s since the epoch. */
const toSeconds = (t: number) => (t > 1e11 ? t / 1000 : t);

export interface ChartWindow {
  from: string;
  to: string;
  bucketMs: number;
}

/**
 * Lays the buckets the server sent onto the full grid of the window; empty buckets become
 * nulls so lines break where nothing was measured instead of bridging the gap.
 */
export function toChartData(series: readonly StatsBucket[], window: ChartWindow): ChartData {
  const bucketMs = Math.max(1000, window.bucketMs);
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  const byStart = new Map(series.map((b) => [b.t > 1e11 ? b.t : b.t * 1000, b]));
  const grid: StatsBucket[] = [];
  const first = Math.min(Math.floor(from / bucketMs) * bucketMs, ...byStart.keys());
  // A defensive cap: a window never needs more points than a screen has pixels.
  for (let t = first, n = 0; t <= to && n < 5000; t += bucketMs, n++) {
    grid.push(byStart.get(t) ?? empty(t));
  }
  // Buckets that do not sit on the grid (a server with other alignment) are still shown.
  if (byStart.size > 0 && grid.every((b) => b.checks === 0)) grid.splice(0, grid.length, ...series);
  const data: ChartData = {
    from: from / 1000,
    to: to / 1000,
    bucketSec: bucketMs / 1000,
    x: [],
    total: [],
    raw: { dns: [], connect: [], tls: [], ttfb: [], download: [] },
    stacked: { dns: [], connect: [], tls: [], ttfb: [], download: [] },
    down: [],
    degraded: [],
  };
  for (const b of grid) {
    data.x.push(toSeconds(b.t));
    data.total.push(b.latency);
    data.down.push(b.down);
    data.degraded.push(b.degraded);
    const measured = b.latency !== null || phases.some((p) => b[p] !== null);
    let sum = 0;
    for (const p of phases) {
      data.raw[p].push(b[p]);
      sum += b[p] ?? 0;
      data.stacked[p].push(measured ? sum : null);
    }
  }
  return data;
}
