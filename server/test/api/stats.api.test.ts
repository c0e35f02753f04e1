import { MonitorStats, statsWindows, type StatsBucket } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { RELATIVE_ACCURACY } from '../../src/domain/latency-sketch.js';
import { uptimePercent } from '../../src/domain/percentiles.js';
import { phaseNames } from '../../src/domain/rollup.js';
import { windowRange } from '../../src/domain/windows.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import {
  batches,
  bruteFigures,
  exactPercentile,
  groupBy,
  randomCheck,
  rng,
  shuffle,
  sum,
  toWrite,
  type GenCheck,
} from '../support/history.js';

const NOW = Date.UTC(2026, 5, 15, 13, 37, 21, 500);
const MIN = 60_000;
const DAY = 86_400_000;

const meanMs = (xs: readonly number[]) =>
  xs.length ? Math.round(sum(xs) / xs.length) / 1000 : null;

/** 92 days of history, denser towards now so every window has several checks per bucket. */
function history(monitorId: number): GenCheck[] {
  const r = rng(615);
  const out: GenCheck[] = [];
  let at = NOW - 92 * DAY;
  while (at <= NOW) {
    out.push(randomCheck(r, monitorId, at));
    const age = NOW - at;
    const gap = age > 26 * 3_600_000 ? 50 * MIN : age > 70 * MIN ? 4 * MIN : 20_000;
    at += 1 + Math.floor(r() * gap);
  }
  return out;
}

/** The chart buckets a naive computation over the raw checks gives. */
function bruteSeries(checks: readonly GenCheck[], bucketMs: number): StatsBucket[] {
  return [...groupBy(checks, bucketMs).entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, cs]) => {
      const f = bruteFigures(cs);
      const point: StatsBucket = {
        t,
        checks: f.checks,
        up: f.up,
        degraded: f.degraded,
        down: f.down,
        latency: meanMs(f.latencies),
        dns: null,
        connect: null,
        tls: null,
        ttfb: null,
        download: null,
      };
      for (const p of phaseNames) point[p] = meanMs(f.phases[p]);
      return point;
    });
}

describe.each(engines)('monitor stats from rollups on %s', (engine) => {
  let t: TestApp;
  let monitorId: number;
  let checks: GenCheck[];

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    const repos = repositories(t.database);
    monitorId = (await repos.monitors.insert(monitorInput(), NOW - 93 * DAY)).id;
    checks = history(monitorId);
    for (const batch of batches(rng(1), shuffle(rng(2), [...checks]), 400)) {
      await repos.results.writeBatch(batch.map(toWrite));
    }
  }, 120_000);
  afterAll(async () => t.stop());

  it.each(statsWindows)('%s equals a brute-force computation over the raw results', async (w) => {
    const res = await t.inject({ url: `/api/v1/monitors/${monitorId}/stats?window=${w}` });
    expect(res.statusCode, res.body).toBe(200);
    const stats = MonitorStats.parse(res.json());
    const { from, to, bucketMs } = windowRange(w, NOW);
    const inWindow = checks.filter((c) => c.at >= from && c.at <= to);
    const f = bruteFigures(inWindow);
    expect(inWindow.length).toBeGreaterThan(20);
    expect(stats).toMatchObject({
      window: w,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      bucketMs,
      checks: f.checks,
      up: f.up,
      degraded: f.degraded,
      down: f.down,
      uptime: uptimePercent(f.up, f.degraded, f.checks),
    });
    expect(stats.latency).toMatchObject({
      min: (f.latencies[0] ?? 0) / 1000,
      max: (f.latencies.at(-1) ?? 0) / 1000,
      avg: meanMs(f.latencies),
    });
    for (const p of [50, 95, 99] as const) {
      const exact = (exactPercentile(f.latencies, p) ?? 0) / 1000;
      const got = stats.latency[`p${p}`] ?? 0;
      // Within the sketch's accuracy, plus the 0.5 µs of rounding to three decimals.
      expect(Math.abs(got - exact), `p${p}`).toBeLessThanOrEqual(exact * RELATIVE_ACCURACY + 5e-4);
    }
    expect(stats.series).toEqual(bruteSeries(inWindow, bucketMs));
  });

  it('answers an empty window with zeros and nulls', async () => {
    const repos = repositories(t.database);
    const quiet = await repos.monitors.insert(monitorInput(), NOW - DAY);
    const stats = MonitorStats.parse(
      (await t.inject({ url: `/api/v1/monitors/${quiet.id}/stats?window=90d` })).json(),
    );
    expect(stats).toMatchObject({ checks: 0, uptime: null, series: [] });
    expect(stats.latency).toEqual({
      min: null,
      avg: null,
      max: null,
      p50: null,
      p95: null,
      p99: null,
    });
  });
});
