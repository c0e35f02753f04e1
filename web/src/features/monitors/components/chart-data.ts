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

export interface ChartData {
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

/** Accepts bucket times in ms or s since the epoch. */
const toSeconds = (t: number) => (t > 1e11 ? t / 1000 : t);

export function toChartData(series: readonly StatsBucket[]): ChartData {
  const data: ChartData = {
    x: [],
    total: [],
    raw: { dns: [], connect: [], tls: [], ttfb: [], download: [] },
    stacked: { dns: [], connect: [], tls: [], ttfb: [], download: [] },
    down: [],
    degraded: [],
  };
  for (const b of series) {
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
