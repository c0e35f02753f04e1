import { ImportReport, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

/** Gatus's icmp://, udp://, ws(s):// and grpc(s):// endpoints as Pagewatch monitors. */
const config = `
endpoints:
  - name: gateway
    url: "icmp://10.0.0.1"
    conditions:
      - "[CONNECTED] == true"
      - "[RESPONSE_TIME] < 50"
  - name: dns-udp
    url: "udp://10.0.0.53:53"
    body: "ping"
    conditions:
      - "[CONNECTED] == true"
  - name: silent-udp
    url: "udp://10.0.0.9:9"
    conditions:
      - "[CONNECTED] == true"
  - name: feed
    url: "wss://feed.example.com/live"
    body: '{"op":"status"}'
    client:
      insecure: true
    conditions:
      - "[CONNECTED] == true"
      - "[BODY].status == ok"
  - name: orders
    url: "grpcs://orders.internal:50051"
    conditions:
      - "[CONNECTED] == true"
`;

describe.each(engines)('Gatus network endpoints on %s', (engine) => {
  let t: TestApp;
  let report: ImportReport;
  beforeAll(async () => {
    t = await startTestApp({ engine });
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/import/gatus',
      headers: { ...t.owner.headers, 'content-type': 'application/yaml' },
      payload: Buffer.from(config),
    });
    expect(res.statusCode, res.body).toBe(200);
    report = ImportReport.parse(res.json());
  });
  afterAll(async () => t?.stop());

  const item = (name: string) => report.items.find((i) => i.source === `endpoint "${name}"`)!;
  async function monitorNamed(name: string): Promise<Monitor> {
    const row = await t.database.db
      .selectFrom('monitors')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Monitor.parse((await t.inject({ url: `/api/v1/monitors/${row.id}` })).json());
  }

  it('icmp:// is a ping monitor; its response time bound degrades', async () => {
    expect(item('gateway').outcome).toBe('created');
    expect(await monitorNamed('gateway')).toMatchObject({
      type: 'ping',
      host: '10.0.0.1',
      degradedThresholdMs: 49,
    });
  });

  it('udp:// sends its body and must be answered; without a body it is skipped', async () => {
    expect(await monitorNamed('dns-udp')).toMatchObject({
      type: 'udp',
      host: '10.0.0.53',
      port: 53,
      send: 'ping',
    });
    expect(item('dns-udp').notes.join(' ')).toMatch(/reply/);
    expect(item('silent-udp')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(/sends no body/),
    });
  });

  it('wss:// is a WebSocket monitor sending the body; the body condition is named as left out', async () => {
    expect(await monitorNamed('feed')).toMatchObject({
      type: 'websocket',
      url: 'wss://feed.example.com/live',
      send: '{"op":"status"}',
      ignoreTls: true,
    });
    expect(item('feed').notes.join(' ')).toMatch(/\[BODY\]\.status == ok" was left out/);
  });

  it('grpcs:// is a gRPC health monitor over TLS', async () => {
    expect(await monitorNamed('orders')).toMatchObject({
      type: 'grpc',
      host: 'orders.internal',
      port: 50051,
      service: '',
      tls: true,
    });
  });
});
