import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { clusterRepository } from '../../src/db/repositories/cluster.js';
import { targetShares } from '../../src/domain/cluster/index.js';
import { fastTimings, startMember, type TestMember } from '../support/cluster.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { until } from '../support/until.js';

/**
 * Watches a set of members: every 20 ms, in one synchronous turn, what each believes it owns
 * must be disjoint from the others; and right after, the database must agree that each of
 * those partitions is that member's (a held lease outlives its local validity by at least
 * renew + skew, so a fresh read can never see another owner yet).
 */
function watch(database: Database, members: () => TestMember[]) {
  const repo = clusterRepository(database.db, database.engine);
  const violations: string[] = [];
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = performance.now();
      const seen = new Map<number, string>();
      const local = members().map((m) => ({ id: m.member.id, owned: m.partitions.owned() }));
      for (const { id, owned } of local) {
        for (const p of owned) {
          const other = seen.get(p);
          if (other) violations.push(`partition ${p} owned by ${other} and ${id} at once`);
          seen.set(p, id);
        }
      }
      const rows = await repo.partitions.table();
      if (performance.now() - at < fastTimings.renewMs + fastTimings.skewMs) {
        for (const [p, id] of seen) {
          const row = rows[p]!;
          if (row.owner !== id || row.expiresAt <= row.now)
            violations.push(
              `partition ${p} owned locally by ${id}, in the database by ${row.owner}`,
            );
        }
      }
      samples += 1;
      await sleep(20);
    }
  })();
  return {
    violations,
    samples: () => samples,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

const union = (members: TestMember[]) => new Set(members.flatMap((m) => m.partitions.owned()));

describe.each(engines)('partition leases on %s', (engine) => {
  let t: TestTarget;
  let observer: Database;
  const running: TestMember[] = [];

  beforeAll(async () => {
    t = await testTarget(engine);
    observer = await openDatabase(t.target);
  });
  afterEach(async () => {
    for (const m of running.splice(0)) await m.close();
  });
  afterAll(async () => {
    await observer.close();
    await t.cleanup();
  });

  it('three members converge to disjoint shares covering all 1,024; a silent one is replaced; a newcomer gets its share by drain and release', async () => {
    const drains: { member: string; partitions: number[]; ownedWhileDraining: boolean }[] = [];
    const start = async (name: string, capacity = 1) => {
      const m: TestMember = await startMember(t.target, {
        name,
        capacity,
        leases: {
          drain: async (partitions) => {
            // The scheduler would finish the checks in flight here.
            await sleep(30);
            drains.push({
              member: name,
              partitions: [...partitions],
              ownedWhileDraining: partitions.some((p) => m.partitions.owns(p)),
            });
          },
        },
      });
      running.push(m);
      return m;
    };
    const w = watch(observer, () => running);
    try {
      await Promise.all([start('a'), start('b'), start('c')]);
      const members = [...running];
      const balanced = (ms: TestMember[]) => {
        const targets = targetShares(
          ms.map((m) => ({ id: m.member.id, capacity: m.member.record.capacity })),
          1024,
        );
        return (
          union(ms).size === 1024 &&
          ms.every((m) => Math.abs(m.partitions.owned().length - targets.get(m.member.id)!) <= 4)
        );
      };
      await until(
        'three members to share all partitions',
        () => balanced(members) || undefined,
        10_000,
      );

      // One stops renewing: it fences itself, the others take its partitions after expiry.
      const [silent, ...rest] = members as [TestMember, TestMember, TestMember];
      const itsShare = silent.partitions.owned();
      expect(itsShare.length).toBeGreaterThan(300);
      silent.cut();
      await until('the silent member to fence itself', () =>
        silent.member.health().state === 'fenced' ? true : undefined,
      );
      expect(silent.partitions.owned()).toEqual([]);
      await until(
        'the other two to cover every partition',
        () => balanced(rest) || undefined,
        10_000,
      );
      running.splice(running.indexOf(silent), 1);
      await silent.close();

      // A newcomer with twice the capacity: the others drain and release their surplus to it.
      const big = await start('d', 2);
      await until(
        'the newcomer to get its share',
        () => balanced([...rest, big]) || undefined,
        15_000,
      );
      expect(big.partitions.owned().length).toBeGreaterThanOrEqual(512 - 4);
      expect(drains.length).toBeGreaterThan(0);
      expect(drains.every((d) => d.member !== 'd' && !d.ownedWhileDraining)).toBe(true);
      // Released in bounded batches (64 at most) after the drain.
      expect(Math.max(...drains.map((d) => d.partitions.length))).toBeLessThanOrEqual(64);
    } finally {
      await w.stop();
    }
    expect(w.samples()).toBeGreaterThan(20);
    expect(w.violations).toEqual([]);
  });

  it('a standby (capacity 0) that expects sharers checks nothing while one with capacity lives, covers all when none does, and hands back', async () => {
    const standby = await startMember(t.target, {
      name: 'standby',
      capacity: 0,
      leases: { expectedSharers: 2 },
    });
    running.push(standby);
    // Young and expecting a sharer: it takes nothing, even before anyone else is there.
    expect(standby.partitions.owned()).toEqual([]);
    const worker = await startMember(t.target, { name: 'worker' });
    running.push(worker);
    await until(
      'the worker to own every partition',
      () => (worker.partitions.owned().length === 1024 ? true : undefined),
      15_000,
    );
    expect(standby.partitions.owned()).toEqual([]);

    // The worker stops renewing: the standby is the only one left and covers everything.
    worker.cut();
    await until(
      'the standby to cover every partition',
      () => (standby.partitions.owned().length === 1024 ? true : undefined),
      15_000,
    );

    // A worker again: the standby drains and hands every partition back.
    const again = await startMember(t.target, { name: 'worker again' });
    running.push(again);
    await until(
      'the new worker to own everything and the standby nothing',
      () =>
        again.partitions.owned().length === 1024 && standby.partitions.owned().length === 0
          ? true
          : undefined,
      20_000,
    );
  });

  it('a lone member owns every partition after its first tick, and a graceful stop frees them at once', async () => {
    const drained: number[][] = [];
    const solo = await startMember(t.target, {
      name: 'solo',
      leases: { drain: async (partitions) => void drained.push([...partitions]) },
    });
    // Leftovers of the previous test are released or expired; what remains free is taken.
    await until('the lone member to own everything', () =>
      solo.partitions.owned().length === 1024 ? true : undefined,
    );
    const next = await startMember(t.target, { name: 'next', start: false });
    await solo.close();
    // Stopping drains what it holds before letting it go.
    expect(drained.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1024 }, (_, i) => i));
    await next.member.start();
    // No expiry to wait for: the released rows are free at the first tick.
    expect(next.partitions.owned()).toHaveLength(1024);
    running.push(next);
  });

  it('a heartbeat slow to get the write lock does not fence: renewals count from when they are sent (ADR 72)', async () => {
    // Margin 3.5 s. Each heartbeat waits 2 s: counted from the tick's start, the next tick's
    // renewal would come back at 4 s and fence; counted from the renewal, 2 s apart, it does not.
    const timings = { renewMs: 200, expireMs: 4000, skewMs: 300 };
    const slowed = await startMember(t.target, { name: 'slowed', timings, start: false });
    running.push(slowed);
    let fences = 0;
    slowed.member.on('fenced', () => (fences += 1));
    await slowed.member.start();
    await until('the member to own everything', () =>
      slowed.partitions.owned().length === 1024 ? true : undefined,
    );
    slowed.slow('heartbeat', 2000);
    for (let i = 0; i < 4; i++) {
      await sleep(2000);
      expect(slowed.member.health().state).toBe('ok');
      expect(slowed.partitions.owned()).toHaveLength(1024);
    }
    expect(fences).toBe(0);
  }, 30_000);
});
