import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresUrl } from '../support/engines.js';
import { until } from '../support/until.js';

// Renewals 10 s apart: only a NOTIFY can make the other process act within a few seconds.
const slow = { renewMs: 10_000, expireMs: 30_000, skewMs: 1_000 };

describe.runIf(postgresUrl)('cluster members on PostgreSQL wake each other', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of [...apps].reverse()) await app.stop();
  });

  it('take over the leases of a process that leaves at once, not at their next renewal', async () => {
    const first = await startTestApp({
      engine: 'postgres',
      scheduler: true,
      cluster: { timings: slow },
    });
    apps.push(first);
    expect(first.cluster.partitions!.owned()).toHaveLength(1024);
    const second = await startTestApp({
      engine: 'postgres',
      sharing: first,
      scheduler: true,
      cluster: { timings: slow },
    });
    apps.push(second);
    // Alone with nothing free, it waits; the first keeps everything until it settles.
    expect(second.cluster.partitions!.owned()).toEqual([]);
    const held = (app: TestApp, name: string) =>
      app.cluster.singletons
        .all()
        .find((l) => l.name === name)
        ?.held();
    expect(held(second, 'retention')).toBe(false);

    await first.cluster.member.stop();
    await until(
      'the second process to take every partition and the singletons',
      () =>
        (second.cluster.partitions!.owned().length === 1024 &&
          held(second, 'retention') &&
          held(second, 'housekeeping')) ||
        undefined,
      5_000,
    );
  });
});
