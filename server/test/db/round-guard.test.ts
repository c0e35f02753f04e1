import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { keyAfter, roundAt, type RoundKey } from '../../src/domain/schedule.js';
import { ResultWriter } from '../../src/engine/result-writer.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';
import { insertChannel, linkChannel, outbox } from '../support/outbox.js';

const T0 = Date.UTC(2030, 2, 1, 12, 0, 0);
const I = 60_000;

/**
 * Exactly-once effects per (monitor, round): two processes that both hold a result for the
 * same round (an overlap during a takeover) write it through their own connections at once.
 */
describe.each(engines)('the round guard on %s', (engine) => {
  let target: TestTarget;
  let a: Database;
  let b: Database;
  let reposA: Repositories;
  let reposB: Repositories;
  let hook: number;
  let pager: number;

  beforeAll(async () => {
    target = await testTarget(engine);
    a = await openDatabase(target.target);
    // PostgreSQL: two pools, so the row lock decides. SQLite has one writer at a time and its
    // driver waits for a lock synchronously, so two connections in one process would deadlock:
    // the writers share one connection, whose transactions run one after the other.
    b = engine === 'postgres' ? await openDatabase(target.target) : a;
    reposA = repositories(a);
    reposB = repositories(b);
    hook = await insertChannel(a, { url: 'http://127.0.0.1:9/hook' });
    pager = await insertChannel(a, { url: 'http://127.0.0.1:9/pager', name: 'Pager' });
  }, 60_000);
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
    await target?.cleanup();
  });

  async function monitor() {
    const m = await reposA.monitors.insert(monitorInput({ retries: 0 }), T0);
    await linkChannel(a, m.id, hook);
    await linkChannel(a, m.id, pager);
    return m.id;
  }

  function up(id: number, round: RoundKey): ResultWrite {
    return {
      monitorId: id,
      at: round.roundDue,
      run: checkRun(),
      status: 'up',
      failures: 0,
      recent: [],
      flip: { from: 'pending', to: 'up' },
      round,
    };
  }

  function down(id: number, round: RoundKey): ResultWrite {
    const run = downRun();
    return {
      monitorId: id,
      at: round.roundDue,
      run,
      status: 'down',
      failures: 1,
      recent: [],
      flip: { from: 'up', to: 'down' },
      firstFailure: { at: round.roundDue, code: run.errorCode, message: run.errorMessage },
      round,
    };
  }

  async function effects(id: number) {
    const flips = await a.db
      .selectFrom('status_flips')
      .select(['from_status', 'to_status'])
      .where('monitor_id', '=', id)
      .execute();
    const incidents = await a.db
      .selectFrom('incident_monitors')
      .select('incident_id')
      .where('monitor_id', '=', id)
      .execute();
    const results = await a.db
      .selectFrom('check_results')
      .select(['round', 'outcome'])
      .where('monitor_id', '=', id)
      .orderBy('id')
      .execute();
    const rows = (await outbox(a)).filter((d) => d.orderKey === `m:${id}`);
    return { flips, incidents, results, rows };
  }

  it('two writers holding the same DOWN round flip, open an incident and alert once', async () => {
    const id = await monitor();
    const r0 = roundAt(id, I, T0);
    const first = keyAfter(null, id, I, r0);
    await reposA.results.writeBatch([up(id, first)]);
    const key = keyAfter(first, id, I, r0 + 1);
    const duplicates: number[] = [];
    const written: number[] = [];
    const logger = pino({ level: 'silent' });
    const writers = [reposA, reposB].map(
      (r) =>
        new ResultWriter(r.results, (w) => written.push(w.length), logger, {
          onDuplicate: (n) => duplicates.push(n),
        }),
    );
    for (const w of writers) w.enqueue(down(id, key));
    await Promise.all(writers.map((w) => w.flush()));

    expect(written.sort()).toEqual([0, 1]);
    expect(duplicates).toEqual([1]);
    const e = await effects(id);
    expect(e.flips.map((f) => `${f.from_status}->${f.to_status}`)).toEqual([
      'pending->up',
      'up->down',
    ]);
    expect(e.incidents).toHaveLength(1);
    expect(e.results.map((r) => Number(r.round))).toEqual([r0, r0 + 1]);
    expect(e.rows.map((r) => [r.channelId, r.kind])).toEqual([
      [hook, 'monitor.down'],
      [pager, 'monitor.down'],
    ]);
    const row = await a.db
      .selectFrom('monitors')
      .select(['status', 'last_round', 'last_round_due', 'last_attempt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([
      row.status,
      Number(row.last_round),
      Number(row.last_round_due),
      row.last_attempt,
    ]).toEqual(['down', r0 + 1, key.roundDue, 0]);
  });

  it('a writer whose copy of the monitor is stale records no second flip for a newer round', async () => {
    const id = await monitor();
    const r0 = roundAt(id, I, T0);
    const first = keyAfter(null, id, I, r0);
    await reposA.results.writeBatch([up(id, first)]);
    // A records the failure; B, which loaded the monitor before that, fails the next round too
    // and thinks it is the change: the stored status already says down.
    const second = keyAfter(first, id, I, r0 + 1);
    await reposA.results.writeBatch([down(id, second)]);
    const third = keyAfter(second, id, I, r0 + 2);
    const [taken] = await reposB.results.writeBatch([down(id, third)]);
    expect(taken?.write.flip).toBeNull();
    const e = await effects(id);
    expect(e.results.map((r) => Number(r.round))).toEqual([r0, r0 + 1, r0 + 2]);
    expect(e.flips.map((f) => `${f.from_status}->${f.to_status}`)).toEqual([
      'pending->up',
      'up->down',
    ]);
    expect(e.incidents).toHaveLength(1);
    expect(e.rows.map((r) => [r.channelId, r.kind])).toEqual([
      [hook, 'monitor.down'],
      [pager, 'monitor.down'],
    ]);
    // And a flip from another status than the writer thought names the stored one.
    const fourth = keyAfter(third, id, I, r0 + 3);
    await reposB.results.writeBatch([{ ...up(id, fourth), flip: { from: 'pending', to: 'up' } }]);
    expect((await effects(id)).flips.map((f) => `${f.from_status}->${f.to_status}`)).toEqual([
      'pending->up',
      'up->down',
      'down->up',
    ]);
  });

  it('many rounds written by both at once: each round counts once, in order', async () => {
    const id = await monitor();
    let last: RoundKey | null = null;
    const writes: ResultWrite[] = [];
    const r0 = roundAt(id, I, T0);
    for (let k = 0; k < 20; k++) {
      last = keyAfter(last, id, I, r0 + k);
      writes.push(
        k % 2 === 0 ? { ...up(id, last), flip: null } : { ...down(id, last), flip: null },
      );
    }
    // Each writer commits the same rounds in batches of its own size, concurrently.
    const one = (async () => {
      for (let i = 0; i < writes.length; i += 3)
        await reposA.results.writeBatch(writes.slice(i, i + 3));
    })();
    const two = (async () => {
      for (let i = 0; i < writes.length; i += 7)
        await reposB.results.writeBatch(writes.slice(i, i + 7));
    })();
    await Promise.all([one, two]);
    const e = await effects(id);
    const rounds = e.results.map((r) => Number(r.round));
    expect(new Set(rounds).size).toBe(rounds.length);
    // A writer behind the other skips what it finds recorded; none is stored twice.
    expect(rounds).toEqual([...rounds].sort((x, y) => x - y));
    expect(rounds.at(-1)).toBe(r0 + 19);
  });

  it('a retry is a further attempt of its round; an older attempt arriving late changes nothing', async () => {
    const id = await monitor();
    const r0 = roundAt(id, I, T0);
    const k0 = keyAfter(null, id, I, r0);
    const k1 = keyAfter(k0, id, I, r0);
    expect(
      await reposA.results.writeBatch([up(id, k0), { ...up(id, k1), flip: null }]),
    ).toHaveLength(2);
    expect(await reposB.results.writeBatch([{ ...up(id, k0), flip: null }])).toHaveLength(0);
    expect((await effects(id)).results).toHaveLength(2);
  });

  it('a batch of hundreds of monitors takes exactly the writes that are new, each with its own row', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) {
      ids.push((await reposA.monitors.insert(monitorInput({ retries: 0 }), T0)).id);
    }
    const firstKeys = ids.map((id) => keyAfter(null, id, I, roundAt(id, I, T0)));
    const first = ids.map((id, i) => ({ ...up(id, firstKeys[i]!), flip: null }));
    expect(await reposA.results.writeBatch(first)).toHaveLength(300);
    // Again, with the next round for every third monitor: only those are taken.
    const again = ids.map((id, i) =>
      i % 3 === 0
        ? { ...down(id, keyAfter(firstKeys[i]!, id, I, firstKeys[i]!.round + 1)), flip: null }
        : first[i]!,
    );
    const taken = await reposB.results.writeBatch([...again].reverse());
    expect(taken.map((t) => t.write.monitorId).sort((x, y) => x - y)).toEqual(
      ids.filter((_, i) => i % 3 === 0),
    );
    for (const t of taken) {
      expect(t.result.monitorId).toBe(t.write.monitorId);
      expect(t.result.outcome).toBe('down');
    }
    const rows = await a.db
      .selectFrom('monitors')
      .select(['id', 'status', 'last_round'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, Number(r.last_round)])).toEqual(
      ids.map((_, i) => [i % 3 === 0 ? 'down' : 'up', firstKeys[i]!.round + (i % 3 === 0 ? 1 : 0)]),
    );
  });

  it('queuing the same alert twice keeps one row per channel (the idempotency key is unique)', async () => {
    const id = await monitor();
    const r0 = roundAt(id, I, T0);
    const k0 = keyAfter(null, id, I, r0);
    await reposA.results.writeBatch([up(id, k0)]);
    const k1 = keyAfter(k0, id, I, r0 + 1);
    await reposA.results.writeBatch([down(id, k1)]);
    // The guard stops a duplicate before the outbox; here the guard is bypassed on purpose.
    await a.db.updateTable('monitors').set({ last_round_due: null }).where('id', '=', id).execute();
    await reposB.results.writeBatch([down(id, k1)]);
    const rows = (await effects(id)).rows;
    expect(rows.map((r) => r.channelId)).toEqual([hook, pager]);
    const keys = await a.db
      .selectFrom('deliveries')
      .select('idempotency_key')
      .where('order_key', '=', `m:${id}`)
      .orderBy('id')
      .execute();
    // The notifier reads the key with the claim, to send it (webhook Idempotency-Key).
    const claimed = await reposB.deliveries.claim(rows[0]!.id, 'w', T0 + 1e9, T0 + 2e9);
    expect(claimed?.idempotencyKey).toBe(`m:${id}:r${k1.roundDue}.0:monitor.down:0:c${hook}`);
    expect(keys.map((k) => k.idempotency_key)).toEqual([
      `m:${id}:r${k1.roundDue}.0:monitor.down:0:c${hook}`,
      `m:${id}:r${k1.roundDue}.0:monitor.down:0:c${pager}`,
    ]);
  });
});
