import { afterEach, describe, expect, it } from 'vitest';
import {
  runWebSocketCheck,
  type WebSocketCheckSpec,
} from '../../src/engine/checks/websocket/index.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { testCertificates } from '../fixtures/certs.js';
import { startWsPeer } from '../fixtures/net-peers.js';
import { refusedPort } from '../fixtures/target-server.js';

const certs = testCertificates();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function peer(options: Parameters<typeof startWsPeer>[0] = {}) {
  const p = await startWsPeer(options);
  closers.push(() => p.close());
  return p;
}

function check(url: string, overrides: Partial<WebSocketCheckSpec> = {}): Promise<CheckRun> {
  return runWebSocketCheck(
    {
      url,
      send: '',
      expectKind: 'none',
      expectPath: '',
      expectValue: '',
      ignoreTls: false,
      timeoutMs: 1500,
      degradedThresholdMs: null,
      secureContext: secureContextFor([certs.ca]),
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('an upgrade', () => {
  it('switching protocols and closing with 1000 is up, timing connect and the upgrade', async () => {
    const p = await peer();
    const run = await check(p.url);
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, httpStatus: 101 });
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).not.toBeNull();
    expect(run.phases.tls).toBeNull();
  });

  it('a message sent and a reply with the keyword is up', async () => {
    const p = await peer();
    const run = await check(p.url, {
      send: 'hello',
      expectKind: 'keyword',
      expectValue: 'echo: hello',
    });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions[0]).toMatchObject({ passed: true, actual: 'echo: hello' });
  });

  it('a JSON reply is judged at its path; messages before it are passed over', async () => {
    const p = await peer({
      onConnection: (ws) =>
        ws.on('message', () => {
          ws.send('{"type":"welcome"}');
          ws.send(JSON.stringify({ type: 'status', status: { ok: true, queue: 3 } }));
        }),
    });
    const run = await check(p.url, {
      send: '{"op":"status"}',
      expectKind: 'json',
      expectPath: '$.status.ok',
      expectValue: 'true',
    });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions[0]).toMatchObject({
      target: '$.status.ok of a message',
      actual: 'true',
    });
  });

  it('wss:// with a trusted certificate is up and the certificate is captured', async () => {
    const p = await peer({ pair: certs.trusted });
    const run = await check(p.url, { send: 'x', expectKind: 'keyword', expectValue: 'echo' });
    expect(run).toMatchObject({ outcome: 'up', certExpiresAt: certs.validTo });
    expect(run.phases.tls).not.toBeNull();
    expect(run.details?.certificate).toMatchObject({ trusted: true });
  });

  it('a certificate expiring within 14 days degrades', async () => {
    const p = await peer({ pair: certs.expiringSoon });
    const run = await check(p.url);
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'tls_cert_expiring' });
  });
});

describe('what fails', () => {
  it('the wrong reply is keyword_missing at the deadline, with the last message', async () => {
    const p = await peer();
    const run = await check(p.url, {
      send: 'hi',
      expectKind: 'keyword',
      expectValue: 'PONG',
      timeoutMs: 400,
    });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing' });
    expect(run.errorMessage).toMatch(/contains PONG, but the last message was echo: hi/);
  });

  it('a JSON value that differs is json_assertion', async () => {
    const p = await peer({ onConnection: (ws) => ws.on('message', () => ws.send('{"ok":false}')) });
    const run = await check(p.url, {
      send: '?',
      expectKind: 'json',
      expectPath: '$.ok',
      expectValue: 'true',
      timeoutMs: 400,
    });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'json_assertion' });
  });

  it('a server closing with 1011 is websocket_closed with its code and reason', async () => {
    const p = await peer({ onConnection: (ws) => ws.close(1011, 'backend gone') });
    const run = await check(p.url, { expectKind: 'keyword', expectValue: 'x' });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'websocket_closed' });
    expect(run.errorMessage).toMatch(/code 1011 \(backend gone\)/);
  });

  it('an HTTP answer instead of the upgrade is http_status', async () => {
    const p = await peer({ refuseWith: 404 });
    const run = await check(p.url);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'http_status', httpStatus: 404 });
  });

  it('401 or 403 instead of the upgrade is auth_failed', async () => {
    const p = await peer({ refuseWith: 403 });
    const run = await check(p.url);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'auth_failed', httpStatus: 403 });
  });

  it('sends its headers with the upgrade: a server requiring one lets it in only with it', async () => {
    const p = await peer({ requireHeader: { name: 'X-Api-Key', value: 'k-123456' } });
    const without = await check(p.url);
    expect(without).toMatchObject({ outcome: 'down', errorCode: 'auth_failed', httpStatus: 401 });
    const headers = [
      { name: 'x-api-key', value: 'k-123456' },
      { name: 'Accept-Language', value: 'en' },
    ];
    expect(await check(p.url, { headers })).toMatchObject({ outcome: 'up', errorCode: null });
  });

  it('a refused connection is connect_refused', async () => {
    const run = await check(`ws://127.0.0.1:${await refusedPort()}/`);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'connect_refused' });
  });

  it('an expired certificate is tls_cert_expired', async () => {
    const p = await peer({ pair: certs.expired });
    expect((await check(p.url)).errorCode).toBe('tls_cert_expired');
  });

  it('a certificate for another name is tls_hostname_mismatch', async () => {
    const p = await peer({ pair: certs.wrongHost });
    expect((await check(p.url)).errorCode).toBe('tls_hostname_mismatch');
  });

  it('a self-signed certificate is tls_cert_untrusted, unless TLS errors are ignored', async () => {
    const p = await peer({ pair: certs.selfSigned });
    expect((await check(p.url)).errorCode).toBe('tls_cert_untrusted');
    expect((await check(p.url, { ignoreTls: true })).outcome).toBe('up');
  });
});
