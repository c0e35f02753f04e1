import { Monitor, MonitorTrialResult, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/lib/crypto.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { startGrpcPeer, startWsPeer, type GrpcPeer, type WsPeer } from '../fixtures/net-peers.js';

// WebSocket upgrade headers and gRPC metadata are sealed, write-only credentials (ADR 17, 64),
// checked against a `ws` server and a gRPC health server that refuse calls without them.
const TOKEN = 'Bearer ws-and-grpc-token-never-shown-7';
const box = new SecretBox(loadSecretKey('test-instance-secret-0123456789abcdef', ''));

describe.each(engines)('WebSocket headers and gRPC metadata as secrets on %s', (engine) => {
  let t: TestApp;
  let ws: WsPeer;
  let grpc: GrpcPeer;
  beforeAll(async () => {
    [t, ws, grpc] = await Promise.all([
      startTestApp({ engine }),
      startWsPeer({ requireHeader: { name: 'Authorization', value: TOKEN } }),
      startGrpcPeer({ requireMetadata: { name: 'authorization', value: TOKEN } }),
    ]);
  });
  afterAll(async () => Promise.all([t.stop(), ws.close(), grpc.close()]));

  const send = (method: 'POST' | 'PUT', url: string, body: unknown) =>
    t.inject({
      method,
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  const bodies = () => ({
    websocket: { type: 'websocket', name: 'Feed', url: ws.url, timeout: 3 },
    grpc: { type: 'grpc', name: 'Orders', host: '127.0.0.1', port: grpc.port, timeout: 3 },
  });
  const trial = async (id: number, body: unknown) => {
    const res = await send('POST', `/api/v1/monitors/${id}/test`, body);
    expect(res.statusCode, res.body).toBe(200);
    return MonitorTrialResult.parse(res.json());
  };
  const row = (id: number) =>
    t.database.db
      .selectFrom('monitors')
      .select(['config', 'header_secrets'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('seals the value, shows the name only, and the server that requires it lets the check in', async () => {
    for (const [type, base] of Object.entries(bodies())) {
      const created = await send('POST', '/api/v1/monitors', {
        ...base,
        headers: [{ name: 'Authorization', value: TOKEN }],
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).not.toContain('never-shown');
      const monitor = Monitor.parse(created.json());
      expect(monitor).toMatchObject({
        type,
        headers: [{ name: 'Authorization', secret: true, hasValue: true }],
      });
      const stored = await row(monitor.id);
      expect(JSON.stringify(stored.config)).not.toContain('never-shown');
      expect(JSON.parse(box.open(stored.header_secrets!))).toEqual([TOKEN]);

      // Left out of the update, the stored value is kept and sent.
      const kept = { ...base, headers: [{ name: 'Authorization' }] };
      const updated = await send('PUT', `/api/v1/monitors/${monitor.id}`, kept);
      expect(updated.statusCode, updated.body).toBe(200);
      const up = await trial(monitor.id, kept);
      expect(up, `${type}: ${up.errorMessage}`).toMatchObject({ outcome: 'up', errorCode: null });

      // Without it the server refuses: the stable auth code. (Trials are limited to 5 a burst.)
      const none = await trial(monitor.id, { ...base, headers: [] });
      expect(none).toMatchObject({ outcome: 'down', errorCode: 'auth_failed' });
    }
  });

  it('refuses gRPC metadata the protocol reserves, naming the header', async () => {
    for (const name of ['grpc-timeout', 'trace-bin', 'TE']) {
      const res = await send('POST', '/api/v1/monitors', {
        ...bodies().grpc,
        headers: [{ name, value: 'x' }],
      });
      expect(res.statusCode).toBe(400);
      const problem = Problem.parse(res.json());
      expect(problem.errors?.[0]).toMatchObject({ path: 'headers.0.name' });
    }
  });

  it('exports the value as a variable reference, never the value', async () => {
    const exported = await t.inject('/api/v1/export?format=yaml');
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).not.toContain('never-shown');
    expect(exported.body).toMatch(/\$\{env:MONITOR_[A-Z0-9_]+_HEADER_AUTHORIZATION\}/);
  });
});
