import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { clusterRepository, type ClusterRepository } from '../../src/db/repositories/cluster.js';
import { engines, openTestDatabase } from '../support/engines.js';

const member = (id: string, roles = ['scheduler']) => ({
  id,
  name: `host:${id}`,
  version: '0.1.0',
  capacity: 1,
  roles,
});

describe.each(engines)('cluster repository on %s', (engine) => {
  let opened: { database: Database; cleanup(): Promise<void> };
  let repo: ClusterRepository;

  beforeAll(async () => {
    opened = await openTestDatabase(engine);
    repo = clusterRepository(opened.database.db, opened.database.engine);
  });
  afterAll(() => opened.cleanup());

  it('starts with 1,024 free partitions', async () => {
    const rows = await repo.partitions.table();
    expect(rows).toHaveLength(1024);
    expect(rows.every((r) => r.owner === null && r.epoch === 0)).toBe(true);
    expect(rows.map((r) => r.key)).toEqual(Array.from({ length: 1024 }, (_, i) => i));
  });

  it('registers members, sees them live on the database clock, and forgets the dead', async () => {
    await repo.register(member('m-a'));
    await repo.register(member('m-b', ['web']));
    const live = await repo.liveMembers(5_000);
    expect(live.map((m) => [m.id, m.roles])).toEqual([
      ['m-a', ['scheduler']],
      ['m-b', ['web']],
    ]);
    expect(live[0]!.heartbeatAt).toBeGreaterThan(Date.now() - 5_000);
    expect(await repo.heartbeat('m-a')).toBe(true);
    expect(await repo.heartbeat('nobody')).toBe(false);
    await sleep(60);
    await repo.heartbeat('m-a');
    expect((await repo.liveMembers(40)).map((m) => m.id)).toEqual(['m-a']);
    expect(await repo.reapMembers(40)).toBe(1);
    await repo.leave('m-a');
    expect(await repo.liveMembers(5_000)).toEqual([]);
  });

  it('acquires free partitions with a bumped epoch, renews only what it still holds', async () => {
    const a = await repo.partitions.acquire('a', 10, 5_000);
    expect(a.map((g) => g.key)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(a.every((g) => g.epoch === 1 && g.previousOwner === null)).toBe(true);
    // Held leases are not free: the next member gets the next ones.
    const b = await repo.partitions.acquire('b', 5, 5_000);
    expect(b.map((g) => g.key)).toEqual([10, 11, 12, 13, 14]);
    // Renewal returns only rows this owner holds among those named.
    const renewed = await repo.partitions.renew('a', [0, 1, 10, 500], 5_000);
    expect(renewed.map((r) => [r.key, r.epoch])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(await repo.partitions.release('a', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toHaveLength(10);
    expect(await repo.partitions.release('b', [10, 11, 12, 13, 14])).toHaveLength(5);
  });

  it('loses a lease once it expires: another owner takes it over with a new epoch', async () => {
    const [first] = await repo.partitions.acquire('a', 1, 150, { among: [100] });
    expect(first).toMatchObject({ key: 100 });
    // Not expired yet: nobody else gets it.
    expect(await repo.partitions.acquire('b', 1, 5_000, { among: [100] })).toEqual([]);
    await sleep(220);
    const [taken] = await repo.partitions.acquire('b', 1, 5_000, { among: [100] });
    expect(taken).toEqual({ key: 100, epoch: first!.epoch + 1, previousOwner: 'a' });
    // The old owner's conditional renewal finds nothing: it stops at once.
    expect(await repo.partitions.renew('a', [100], 5_000)).toEqual([]);
    const row = (await repo.partitions.table()).find((r) => r.key === 100)!;
    expect(row).toMatchObject({ owner: 'b', epoch: first!.epoch + 1 });
    expect(row.expiresAt).toBeGreaterThan(row.now);
  });

  it('never renews an expired lease, even one nobody took', async () => {
    await repo.partitions.acquire('c', 1, 100, { among: [200] });
    await sleep(160);
    expect(await repo.partitions.renew('c', [200], 5_000)).toEqual([]);
    // Re-acquiring it is a new tenure: the epoch moves on.
    const [again] = await repo.partitions.acquire('c', 1, 5_000, { among: [200] });
    expect(again).toMatchObject({ key: 200, epoch: 2, previousOwner: 'c' });
  });

  it('releases rows a fenced owner no longer honours, keeping the ones named', async () => {
    await repo.partitions.acquire('d', 3, 5_000, { among: [300, 301, 302] });
    expect(await repo.partitions.releaseOthers('d', [301])).toBe(2);
    const rows = (await repo.partitions.table()).filter((r) => r.owner === 'd');
    expect(rows.map((r) => r.key)).toEqual([301]);
  });

  it('takes only partitions free for long enough when asked for orphans', async () => {
    await repo.partitions.acquire('e', 1, 5_000, { among: [400] });
    await repo.partitions.release('e', [400]);
    expect(
      await repo.partitions.acquire('f', 1, 5_000, { among: [400], freeForMs: 10_000 }),
    ).toEqual([]);
    expect(await repo.partitions.acquire('f', 1, 5_000, { among: [400] })).toHaveLength(1);
  });

  it('gives a singleton to one owner at a time', async () => {
    await repo.singletons.ensure(['retention', 'housekeeping']);
    await repo.singletons.ensure(['retention']);
    const a = await repo.singletons.acquire('a', 2, 150, { among: ['retention'] });
    expect(a).toEqual([{ key: 'retention', epoch: 1, previousOwner: null }]);
    expect(await repo.singletons.acquire('b', 1, 5_000, { among: ['retention'] })).toEqual([]);
    expect(await repo.singletons.renew('a', ['retention'], 150)).toEqual([
      { key: 'retention', epoch: 1 },
    ]);
    await sleep(220);
    expect(await repo.singletons.acquire('b', 1, 5_000, { among: ['retention'] })).toEqual([
      { key: 'retention', epoch: 2, previousOwner: 'a' },
    ]);
    expect(await repo.singletons.renew('a', ['retention'], 5_000)).toEqual([]);
    const rows = await repo.singletons.table();
    expect(rows.map((r) => [r.key, r.owner, r.epoch])).toEqual([
      ['housekeeping', null, 0],
      ['retention', 'b', 2],
    ]);
  });

  it('lets concurrent acquirers take disjoint sets', async () => {
    await repo.partitions.releaseOthers('a', []);
    await repo.partitions.releaseOthers('b', []);
    const owners = ['p', 'q', 'r', 's'];
    const results = await Promise.all(owners.map((o) => repo.partitions.acquire(o, 300, 5_000)));
    const all = results.flat().map((g) => g.key);
    expect(new Set(all).size).toBe(all.length);
    const rows = await repo.partitions.table();
    for (const [i, o] of owners.entries()) {
      const db = rows.filter((r) => r.owner === o).map((r) => r.key);
      expect(db.sort((x, y) => x - y)).toEqual(results[i]!.map((g) => g.key).sort((x, y) => x - y));
    }
  });
});
