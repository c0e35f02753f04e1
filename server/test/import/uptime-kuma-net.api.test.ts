import { ImportReport, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { alteredFixture, uploadKuma } from '../support/kuma.js';

/**
 * Kuma's gRPC keyword and WebSocket upgrade monitors, added to the 2.5.3 fixture with the
 * columns Kuma writes for them: a health check becomes a gRPC monitor, another method is
 * skipped with why, an upgrade check becomes a WebSocket monitor.
 */
const added = alteredFixture(`
  insert into monitor (id, name, type, active, interval, retry_interval, maxretries, timeout,
    url, grpc_url, grpc_service_name, grpc_method, grpc_body, grpc_enable_tls, keyword,
    ignore_tls, ws_ignore_sec_websocket_accept_header, user_id)
  values
    (90, 'Orders health', 'grpc-keyword', 1, 60, 60, 0, 48, 'https://',
      'orders.internal:50051', 'grpc.health.v1.Health', 'Check', '{"service":"shop.Orders"}', 1,
      'SERVING', 0, 0, 1),
    (91, 'Orders list', 'grpc-keyword', 1, 60, 60, 0, 48, 'https://',
      'orders.internal:50051', 'shop.Orders', 'List', '{}', 0, 'ok', 0, 0, 1),
    (92, 'Live feed', 'websocket-upgrade', 1, 60, 60, 0, 48, 'wss://feed.example.com/live',
      null, null, null, null, 0, null, 1, 1, 1);
`);

describe.each(engines)('Uptime Kuma network monitors on %s', (engine) => {
  let t: TestApp;
  let report: ImportReport;
  beforeAll(async () => {
    t = await startTestApp({ engine });
    const res = await uploadKuma(t, added);
    expect(res.statusCode, res.body).toBe(200);
    report = ImportReport.parse(res.json());
  });
  afterAll(async () => t?.stop());

  const item = (id: number) => report.items.find((i) => i.source.startsWith(`monitor #${id} `))!;
  async function monitorOf(kumaId: number): Promise<Monitor> {
    const row = await t.database.db
      .selectFrom('monitors')
      .select('id')
      .where('config_key', '=', `kuma-monitor-${kumaId}`)
      .executeTakeFirstOrThrow();
    return Monitor.parse((await t.inject({ url: `/api/v1/monitors/${row.id}` })).json());
  }

  it('a gRPC health check becomes a gRPC monitor for the same service, TLS kept', async () => {
    expect(item(90).outcome).toBe('created');
    expect(item(90).notes.join(' ')).toMatch(/Kuma looked for "SERVING".*expects SERVING/);
    expect(await monitorOf(90)).toMatchObject({
      type: 'grpc',
      host: 'orders.internal',
      port: 50051,
      service: 'shop.Orders',
      tls: true,
    });
  });

  it('another gRPC method is skipped, saying why', () => {
    expect(item(91)).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(/calls shop\.Orders\/List.*health service/),
    });
  });

  it('a WebSocket upgrade check becomes a WebSocket monitor', async () => {
    expect(item(92).outcome).toBe('created');
    expect(item(92).notes.join(' ')).toMatch(/Sec-WebSocket-Accept/);
    expect(await monitorOf(92)).toMatchObject({
      type: 'websocket',
      url: 'wss://feed.example.com/live',
      expectKind: 'none',
      ignoreTls: true,
    });
  });
});
