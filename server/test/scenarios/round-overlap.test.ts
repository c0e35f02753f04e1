import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { postgresUrl } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { insertChannel, linkChannel } from '../support/outbox.js';
import { until } from '../support/until.js';

/**
 * Two full processes that both run every monitor (the overlap a takeover can cause) on one
 * PostgreSQL database: they check the same rounds, and only one result per round counts.
 */
describe.runIf(postgresUrl)('two schedulers on one database checking the same monitor', () => {
  let web: TestApp;
  let one: TestApp | undefined;
  let two: TestApp | undefined;
  let hook: HttpReceiver;
  let monitorId: number;
  let target: http.Server;
  let hits = 0;

  beforeAll(async () => {
    hook = await startHttpReceiver();
    // The monitored service is down and counts every check that reaches it.
    target = http.createServer((_req, res) => {
      hits += 1;
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    web = await startTestApp({ engine: 'postgres' });
    const repos = repositories(web.database);
    // Every check fails, so the first one flips the monitor down.
    const m = await repos.monitors.insert(
      monitorInput({ url: `http://127.0.0.1:${port}/`, interval: 10, timeout: 5, retries: 0 }),
      Date.now(),
    );
    monitorId = m.id;
    const channel = await insertChannel(web.database, { url: `${hook.url}/hook` });
    await linkChannel(web.database, monitorId, channel);
    // Both check every monitor whatever partitions they own: the overlap a takeover can cause.
    const overlap = { cluster: { overlap: true } };
    one = await startTestApp({ engine: 'postgres', scheduler: true, sharing: web, ...overlap });
    two = await startTestApp({ engine: 'postgres', scheduler: true, sharing: web, ...overlap });
  }, 60_000);
  afterAll(async () => {
    await two?.stop();
    await one?.stop();
    await web?.stop();
    await hook?.close();
    target?.closeAllConnections();
    await new Promise((resolve) => target?.close(resolve));
  });

  it('flip, open an incident and alert once, and store each round once', async () => {
    const db = web.database.db;
    const results = () =>
      db
        .selectFrom('check_results')
        .select(['round'])
        .where('monitor_id', '=', monitorId)
        .orderBy('id')
        .execute();
    // Three rounds: the one at start and two planned ones, each checked by both processes.
    await until(
      'three rounds recorded',
      async () => ((await results()).length >= 3 ? true : undefined),
      45_000,
    );
    await until('the alert sent', () => (hook.requests.length >= 1 ? true : undefined), 15_000);

    // Both processes did check: the target saw more checks than results were stored.
    expect(hits).toBeGreaterThan((await results()).length);
    const rounds = (await results()).map((r) => Number(r.round));
    expect(new Set(rounds).size).toBe(rounds.length);
    const flips = await db
      .selectFrom('status_flips')
      .select(['to_status'])
      .where('monitor_id', '=', monitorId)
      .execute();
    expect(flips.map((f) => f.to_status)).toEqual(['down']);
    const incidents = await db
      .selectFrom('incident_monitors')
      .select('incident_id')
      .where('monitor_id', '=', monitorId)
      .execute();
    expect(incidents).toHaveLength(1);
    const deliveries = await db
      .selectFrom('deliveries')
      .select(['event_kind', 'idempotency_key'])
      .where('monitor_id', '=', monitorId)
      .execute();
    expect(deliveries.map((d) => d.event_kind)).toEqual(['monitor.down']);
    expect(hook.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      deliveries[0]!.idempotency_key,
    ]);
  }, 90_000);
});
