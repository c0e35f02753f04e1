import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { pruneDeliveries } from '../../src/jobs/retention.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { insertChannel, linkChannel, outbox, queueDelivery } from '../support/outbox.js';
import { resultDriver } from '../support/result-driver.js';

const T0 = Date.UTC(2030, 2, 1, 12, 0, 0);

/** Alerts are written to the outbox in the transaction of the result that caused them. */
describe.each(engines)('the alert outbox on %s', (engine) => {
  let target: TestTarget;
  let database: Database;
  let repos: Repositories;
  let hook: number;
  let pager: number;

  beforeAll(async () => {
    target = await testTarget(engine);
    database = await openDatabase(target.target);
    repos = repositories(database);
    hook = await insertChannel(database, { url: 'http://127.0.0.1:9/hook' });
    pager = await insertChannel(database, { url: 'http://127.0.0.1:9/pager', name: 'Pager' });
  });
  afterAll(async () => {
    await database.close();
    await target.cleanup();
  });

  /** A monitor alerting through the given channels, with its own rows in the outbox. */
  async function monitorWith(channels: number[], rules: object | null = null, retries = 1) {
    const m = await repos.monitors.insert(monitorInput({ retries }), T0);
    for (const c of channels) await linkChannel(database, m.id, c);
    if (rules) {
      await database.db
        .updateTable('monitors')
        .set({ alert_rules: JSON.stringify(rules) })
        .where('id', '=', m.id)
        .execute();
    }
    const rows = async () => (await outbox(database)).filter((d) => d.orderKey === `m:${m.id}`);
    return { id: m.id, drive: resultDriver(repos, m.id, retries, T0), rows };
  }

  it('queues a confirmed DOWN for every enabled channel of the monitor, in the result transaction', async () => {
    const off = await insertChannel(database, { url: 'http://127.0.0.1:9/off', enabled: false });
    const m = await monitorWith([hook, pager, off]);
    let signals = 0;
    const stop = repos.outbox.subscribe(() => (signals += 1));
    await m.drive.run('up', 'down');
    expect(await m.rows()).toEqual([]);
    await m.drive.run('down');
    stop();
    const rows = await m.rows();
    expect(rows.map((r) => [r.channelId, r.kind, r.state, r.attempts])).toEqual([
      [hook, 'monitor.down', 'queued', 0],
      [pager, 'monitor.down', 'queued', 0],
    ]);
    expect(rows[0]!.event).toMatchObject({
      monitor: { id: m.id, type: 'http', target: expect.stringContaining('http://127.0.0.1:9/') },
      status: 'down',
      cause: {
        code: 'connect_refused',
        phase: 'connect',
        since: new Date(T0 + 60_000).toISOString(),
      },
    });
    expect(rows[0]!.nextAttemptAt).toBe(T0 + 120_000);
    expect(signals).toBe(1);
  });

  it('a failed transaction writes neither the result nor its alerts', async () => {
    const m = await monitorWith([hook], null, 0);
    await m.drive.run('up');
    const down = m.drive.next('down');
    // The same batch holds a result of a monitor that does not exist: the whole batch fails.
    const orphan = { ...m.drive.next('up'), monitorId: 999_999 };
    await expect(repos.results.writeBatch([down, orphan])).rejects.toThrow();
    expect(await m.rows()).toEqual([]);
    expect((await repos.monitors.findById(m.id))?.state.status).toBe('up');
    await repos.results.writeBatch([down]);
    expect((await m.rows()).map((r) => r.kind)).toEqual(['monitor.down']);
  });

  it('sends nothing for an outage inside a maintenance window', async () => {
    const m = await monitorWith([hook]);
    await m.drive.run('up');
    await m.drive.inMaintenance('down', 'down', 'down', 'up');
    await m.drive.run('up');
    expect(await m.rows()).toEqual([]);
  });

  it('turns a flapping sequence into exactly one flapping and one settled', async () => {
    const m = await monitorWith([hook], { flapThreshold: 3, flapWindowS: 600 }, 0);
    await m.drive.run('up');
    for (let i = 0; i < 6; i++) await m.drive.run('down', 'up');
    for (let i = 0; i < 12; i++) await m.drive.run('up');
    expect((await m.rows()).map((r) => r.kind)).toEqual([
      'monitor.down',
      'monitor.up',
      'monitor.down',
      'monitor.flapping',
      'monitor.settled',
    ]);
  });

  it('alerts after afterChecks confirmed-down checks and reminds every renotifyEveryChecks', async () => {
    const m = await monitorWith([hook], { afterChecks: 2, renotifyEveryChecks: 3 });
    await m.drive.run('up', 'down', 'down');
    expect(await m.rows()).toEqual([]);
    await m.drive.run('down', 'down', 'down', 'down', 'up');
    expect((await m.rows()).map((r) => [r.kind, r.event.downChecks])).toEqual([
      ['monitor.down', 2],
      ['monitor.still_down', 5],
      ['monitor.up', null],
    ]);
  });

  it('keeps a healthy monitor free of alert state: no write beyond the result', async () => {
    const m = await monitorWith([hook]);
    await m.drive.run('up', 'up', 'up');
    const row = await database.db
      .selectFrom('monitors')
      .select('alert_state')
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.alert_state).toBeNull();
  });

  it('retention deletes sent and failed deliveries after 30 days and keeps undelivered ones', async () => {
    const DAY = 86_400_000;
    const now = T0 + 100 * DAY;
    const old = now - 31 * DAY;
    const ids = {
      oldSent: await queueDelivery(database, pager, 'r:1', 'monitor.down', old),
      oldFailed: await queueDelivery(database, pager, 'r:2', 'monitor.down', old),
      oldQueued: await queueDelivery(database, pager, 'r:3', 'monitor.down', old),
      recentSent: await queueDelivery(database, pager, 'r:4', 'monitor.down', now - DAY),
    };
    const set = (id: number, state: string) =>
      database.db.updateTable('deliveries').set({ state }).where('id', '=', id).execute();
    await set(ids.oldSent, 'sent');
    await set(ids.oldFailed, 'failed');
    await set(ids.recentSent, 'sent');
    expect(await pruneDeliveries(repos, now, { pauseMs: 0, batchSize: 1 })).toBe(2);
    const left = (await outbox(database)).filter((d) => d.orderKey.startsWith('r:'));
    expect(left.map((d) => d.id)).toEqual([ids.oldQueued, ids.recentSent]);
  });

  it('falls back to the default rules when a monitor’s stored rules are unreadable', async () => {
    const m = await monitorWith([hook], null, 0);
    await database.db
      .updateTable('monitors')
      .set({ alert_rules: '{"afterChecks": "soon"', alert_state: 'not json' })
      .where('id', '=', m.id)
      .execute();
    await m.drive.run('up', 'down');
    expect((await m.rows()).map((r) => r.kind)).toEqual(['monitor.down']);
  });
});
