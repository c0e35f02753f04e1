import { LatencySketch } from '../../../domain/latency-sketch.js';
import { emptyFigures, type RollupDelta, type RollupLevel } from '../../../domain/rollup.js';
import type { KumaStat } from './source.js';

/** A Kuma statistics row as a rollup delta of the Kuma monitor it belongs to. */
export interface KumaRollup {
  level: RollupLevel;
  kumaMonitorId: number;
  delta: Omit<RollupDelta, 'monitorId'>;
}

/**
 * One Kuma bucket as a rollup. Kuma counts pending beats as down and keeps the mean, least and
 * greatest response time of the up beats, so counts, mean, min and max carry over exactly;
 * the sketch is rebuilt from min, max and the mean for the rest (percentiles are approximate,
 * ADR 30). Maintenance beats Kuma counts apart are left out, as they were of its uptime.
 */
export function rollupOfStat(level: RollupLevel, s: KumaStat): KumaRollup {
  const figures = emptyFigures();
  figures.up = s.up;
  figures.down = s.down;
  figures.checks = s.up + s.down;
  const sketch = new LatencySketch();
  const timed = s.up > 0 && s.ping !== null && s.ping > 0;
  if (timed) {
    const us = (ms: number | null) => Math.max(0, Math.round((ms ?? s.ping!) * 1000));
    const mean = us(s.ping);
    const min = Math.min(us(s.pingMin), mean);
    const max = Math.max(us(s.pingMax), mean);
    figures.latencyCount = s.up;
    figures.latencySumUs = mean * s.up;
    figures.latencyMinUs = min;
    figures.latencyMaxUs = max;
    if (s.up === 1) sketch.add(mean);
    else {
      sketch.add(min).add(max);
      sketch.add(mean, s.up - 2);
    }
  }
  return {
    level,
    kumaMonitorId: s.monitorId,
    delta: { ...figures, bucket: s.timestamp * 1000, sketch },
  };
}

/** The statistics of the given Kuma monitors as rollups, finest level first. */
export function mapHistory(
  stats: { minute: KumaStat[]; hour: KumaStat[]; day: KumaStat[] },
  kumaIds: ReadonlySet<number>,
): KumaRollup[] {
  const out: KumaRollup[] = [];
  for (const level of ['minute', 'hour', 'day'] as const) {
    for (const s of stats[level]) {
      if (kumaIds.has(s.monitorId) && s.up + s.down > 0) out.push(rollupOfStat(level, s));
    }
  }
  return out;
}
