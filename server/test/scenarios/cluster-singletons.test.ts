import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { fastTimings } from '../support/cluster.js';
import { engines } from '../support/engines.js';
import { parseExposition, valueOf } from '../support/prometheus.js';
import { until } from '../support/until.js';

interface LogLine {
  msg?: string;
  time: number;
}

describe.each(engines)('three Pagewatch processes on one %s database', (engine) => {
  const apps: TestApp[] = [];
  const logs = new Map<TestApp, LogLine[]>();

  const start = async () => {
    const lines: LogLine[] = [];
    const app = await startTestApp({
      engine,
      scheduler: true,
      ...(apps[0] ? { sharing: apps[0] } : {}),
      cluster: { timings: fastTimings, partitions: { settleMs: 300 } },
      retention: { everyMs: 200, firstAfterMs: 0 },
      logger: pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s)) }),
    });
    apps.push(app);
    logs.set(app, lines);
    return app;
  };
  const holders = (name: string) =>
    apps.filter((a) => a.cluster.singletons.all().some((l) => l.name === name && l.held()));
  const retentionRuns = (app: TestApp, from: number) =>
    logs.get(app)!.filter((l) => l.msg === 'retention: nothing expired' && l.time >= from).length;

  beforeAll(async () => {
    await start();
    await start();
    await start();
  });
  afterAll(async () => {
    // The first app owns the database and removes it: it stops last.
    for (const app of [...apps].reverse()) await app.stop();
  });

  it('run retention and housekeeping once, share the partitions, and say so on /readyz and /metrics', async () => {
    await until(
      'the partitions to be shared',
      () =>
        (apps.every((a) => Math.abs(a.cluster.partitions!.owned().length - 341) <= 4) &&
          new Set(apps.flatMap((a) => a.cluster.partitions!.owned())).size === 1024) ||
        undefined,
      15_000,
    );
    expect(holders('retention')).toHaveLength(1);
    expect(holders('housekeeping')).toHaveLength(1);

    const from = Date.now();
    await sleep(1_000);
    const runs = apps.map((a) => retentionRuns(a, from));
    expect(runs.filter((n) => n > 0)).toHaveLength(1);
    expect(Math.max(...runs)).toBeLessThanOrEqual(1_000 / 200 + 2);

    for (const app of apps) {
      const ready = await app.inject('/readyz');
      expect(ready.json()).toEqual({ status: 'ok', database: 'ok', cluster: 'ok' });
    }
    const holder = holders('retention')[0]!;
    const samples = parseExposition((await holder.inject('/metrics')).body);
    expect(valueOf(samples, 'pagewatch_cluster_members', {})).toBe(3);
    expect(valueOf(samples, 'pagewatch_cluster_fenced', {})).toBe(0);
    expect(valueOf(samples, 'pagewatch_cluster_singleton_held', { name: 'retention' })).toBe(1);
    expect(
      Math.abs(valueOf(samples, 'pagewatch_cluster_partitions_owned', {})! - 341),
    ).toBeLessThanOrEqual(4);
    expect(valueOf(samples, 'pagewatch_cluster_takeovers_total', { kind: 'singleton' })).toBe(0);
    expect(valueOf(samples, 'pagewatch_cluster_lease_renewal_seconds_count', {})).toBeGreaterThan(
      0,
    );
  });

  it('is not ready while fenced, and renews again after', async () => {
    const app = apps[1]!;
    app.cluster.member.fence('test');
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toMatch(/fenced itself/);
    expect(app.cluster.partitions!.owned()).toEqual([]);
    await until('the member to renew again', async () =>
      (await app.inject('/readyz')).statusCode === 200 ? true : undefined,
    );
    expect(holders('retention')).toHaveLength(1);
  });

  it('hands the singletons over at once when their holder leaves', async () => {
    const holder = holders('retention')[0]!;
    const others = apps.filter((a) => a !== holder);
    await holder.cluster.member.stop();
    expect((await holder.inject('/readyz')).statusCode).toBe(503);
    const left = Date.now();
    await until(
      'another process to run retention',
      () => others.some((a) => retentionRuns(a, left) > 0) || undefined,
    );
    expect(holders('retention').filter((a) => a !== holder)).toHaveLength(1);
    await until(
      'the other two to cover every partition',
      () =>
        new Set(others.flatMap((a) => a.cluster.partitions!.owned())).size === 1024 || undefined,
    );
  });
});
