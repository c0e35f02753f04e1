import { describe, expect, it } from 'vitest';
import {
  PARTITIONS,
  defaultMaxRelease,
  defaultSlack,
  fmix32,
  partitionOf,
  planStep,
  targetShares,
  type ShareMember,
} from '../../src/domain/cluster/index.js';

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('partitionOf', () => {
  it('is stable and in range', () => {
    expect(fmix32(0)).toBe(0);
    // Fixed values: a change here would move every monitor to another partition.
    expect(partitionOf(1)).toBe(fmix32(1) % 1024);
    expect([1, 2, 3, 1000, 123456].map((id) => partitionOf(id))).toEqual(
      [1, 2, 3, 1000, 123456].map((id) => partitionOf(id)),
    );
    for (let id = 1; id < 5000; id++) {
      const p = partitionOf(id);
      expect(Number.isInteger(p) && p >= 0 && p < PARTITIONS).toBe(true);
    }
  });

  it('spreads consecutive ids evenly over the partitions', () => {
    const counts = new Array<number>(PARTITIONS).fill(0);
    const n = 100_000;
    for (let id = 1; id <= n; id++) counts[partitionOf(id)]! += 1;
    const mean = n / PARTITIONS;
    // Within ±40 % of the mean everywhere (a Poisson spread of ~98 per partition).
    expect(Math.min(...counts)).toBeGreaterThan(mean * 0.6);
    expect(Math.max(...counts)).toBeLessThan(mean * 1.4);
  });
});

describe('targetShares', () => {
  it('splits 1,024 evenly and sums exactly, remainders to the smaller ids', () => {
    const t = targetShares(
      [
        { id: 'c', capacity: 1 },
        { id: 'a', capacity: 1 },
        { id: 'b', capacity: 1 },
      ],
      PARTITIONS,
    );
    expect(Object.fromEntries(t)).toEqual({ a: 342, b: 341, c: 341 });
    expect(sum(t)).toBe(PARTITIONS);
  });

  it('weights by capacity', () => {
    const t = targetShares(
      [
        { id: 'a', capacity: 1 },
        { id: 'b', capacity: 3 },
      ],
      PARTITIONS,
    );
    expect(Object.fromEntries(t)).toEqual({ a: 256, b: 768 });
    const u = targetShares(
      [
        { id: 'a', capacity: 2 },
        { id: 'b', capacity: 3 },
        { id: 'c', capacity: 2 },
      ],
      PARTITIONS,
    );
    expect(sum(u)).toBe(PARTITIONS);
    expect(u.get('b')).toBe(439); // 1024 × 3/7 = 438.86
  });

  it('gives nothing to capacity 0 while another has capacity, and equal shares when none has', () => {
    const t = targetShares(
      [
        { id: 'web', capacity: 0 },
        { id: 'sched', capacity: 1 },
      ],
      PARTITIONS,
    );
    expect(Object.fromEntries(t)).toEqual({ web: 0, sched: 1024 });
    expect(sum(targetShares([{ id: 'x', capacity: 0 }], PARTITIONS))).toBe(PARTITIONS);
    const standbys = targetShares(
      [
        { id: 'x', capacity: 0 },
        { id: 'y', capacity: 0 },
      ],
      PARTITIONS,
    );
    expect(Object.fromEntries(standbys)).toEqual({ x: 512, y: 512 });
    expect(targetShares([], PARTITIONS).size).toBe(0);
  });

  it('does not depend on the order the members are listed in', () => {
    const members: ShareMember[] = Array.from({ length: 7 }, (_, i) => ({
      id: `m${i}`,
      capacity: 1 + (i % 3),
    }));
    const a = targetShares(members, PARTITIONS);
    const b = targetShares([...members].reverse(), PARTITIONS);
    expect(Object.fromEntries(a)).toEqual(Object.fromEntries(b));
    expect(sum(a)).toBe(PARTITIONS);
  });
});

describe('planStep', () => {
  const base = { slack: 4, maxRelease: 64 };
  it('acquires up to the target and releases surplus beyond the slack in bounded batches', () => {
    expect(planStep({ ...base, target: 341, owned: 0 })).toEqual({ acquire: 341, release: 0 });
    expect(planStep({ ...base, target: 341, owned: 341 })).toEqual({ acquire: 0, release: 0 });
    expect(planStep({ ...base, target: 341, owned: 345 })).toEqual({ acquire: 0, release: 0 });
    expect(planStep({ ...base, target: 341, owned: 346 })).toEqual({ acquire: 0, release: 5 });
    expect(planStep({ ...base, target: 341, owned: 1024 })).toEqual({ acquire: 0, release: 64 });
  });

  it('defaults: a slack of 4 and batches of 64 for 1,024 partitions', () => {
    expect(defaultSlack(PARTITIONS)).toBe(4);
    expect(defaultMaxRelease(PARTITIONS)).toBe(64);
    expect(defaultSlack(8)).toBe(1);
  });
});

/**
 * A whole cluster in memory: every member plans from the same member list; releases go to a
 * free pool, acquisitions take from it in member order. Returns the ticks to converge and
 * the partitions that moved.
 */
function simulate(owned: Map<string, number>, members: ShareMember[]) {
  const slack = defaultSlack(PARTITIONS);
  const maxRelease = defaultMaxRelease(PARTITIONS);
  for (const m of members) if (!owned.has(m.id)) owned.set(m.id, 0);
  for (const id of [...owned.keys()]) if (!members.some((m) => m.id === id)) owned.delete(id);
  let free = PARTITIONS - sum(owned);
  let moved = 0;
  const targets = targetShares(members, PARTITIONS);
  for (let tick = 1; tick <= 100; tick++) {
    let changed = false;
    for (const m of members) {
      const have = owned.get(m.id) ?? 0;
      const step = planStep({ target: targets.get(m.id) ?? 0, owned: have, slack, maxRelease });
      const got = Math.min(step.acquire, free);
      free += step.release - got;
      moved += step.release;
      owned.set(m.id, have + got - step.release);
      changed ||= got > 0 || step.release > 0;
    }
    if (!changed) return { ticks: tick, moved, free };
  }
  throw new Error('did not converge');
}

describe('join and leave sequences', () => {
  it('converge to the targets with every partition owned, moving only what must move', () => {
    const owned = new Map<string, number>();
    const members: ShareMember[] = [{ id: 'a', capacity: 1 }];
    let r = simulate(owned, members);
    expect(owned.get('a')).toBe(1024);
    expect(r.free).toBe(0);

    for (const [id, capacity] of [
      ['b', 1],
      ['c', 2],
      ['d', 1],
    ] as const) {
      const before = new Map(owned);
      members.push({ id, capacity });
      r = simulate(owned, members);
      const targets = targetShares(members, PARTITIONS);
      expect(r.free).toBe(0);
      for (const m of members)
        expect(Math.abs(owned.get(m.id)! - targets.get(m.id)!)).toBeLessThanOrEqual(4);
      // Only what the newcomer needs moves: no partition changes hands twice.
      const shed = [...before].reduce((n, [k, v]) => n + Math.max(0, v - owned.get(k)!), 0);
      expect(r.moved).toBe(shed);
      expect(r.moved).toBeLessThanOrEqual(targets.get(id)!);
      expect(r.ticks).toBeLessThanOrEqual(Math.ceil(1024 / 64) + 2);
    }

    // A member leaves: its partitions are free, the others take them without releasing any.
    members.splice(
      members.findIndex((m) => m.id === 'c'),
      1,
    );
    r = simulate(owned, members);
    expect(r.moved).toBe(0);
    expect(r.free).toBe(0);
    expect(sum(owned)).toBe(1024);
  });
});
