import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runGrpcCheck, type GrpcCheckSpec } from '../../src/engine/checks/grpc/index.js';
import {
  healthRequestFrame,
  parseHealthResponse,
} from '../../src/engine/checks/grpc/health-proto.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { testCertificates } from '../fixtures/certs.js';
import { startGrpcPeer } from '../fixtures/net-peers.js';
import { refusedPort } from '../fixtures/target-server.js';

const certs = testCertificates();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function peer(options: Parameters<typeof startGrpcPeer>[0] = {}) {
  const p = await startGrpcPeer(options);
  closers.push(() => p.close());
  return p;
}

function check(port: number, overrides: Partial<GrpcCheckSpec> = {}): Promise<CheckRun> {
  return runGrpcCheck(
    {
      host: '127.0.0.1',
      port,
      service: '',
      tls: false,
      ignoreTls: false,
      timeoutMs: 2000,
      degradedThresholdMs: null,
      secureContext: secureContextFor([certs.ca]),
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('the health service of @grpc/grpc-js (grpc-health-check)', () => {
  it('sends its metadata with the call: a server requiring it answers only with it', async () => {
    const p = await peer({ requireMetadata: { name: 'x-api-key', value: 'k-123456' } });
    const without = await check(p.port);
    expect(without).toMatchObject({ outcome: 'down', errorCode: 'auth_failed' });
    expect(without.errorMessage).toMatch(/UNAUTHENTICATED/);
    const metadata = [{ name: 'X-Api-Key', value: 'k-123456' }];
    expect(await check(p.port, { metadata })).toMatchObject({ outcome: 'up', errorCode: null });
  });

  it('SERVING for the whole server is up, with connect and first answer timed', async () => {
    const p = await peer();
    const run = await check(p.port);
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).not.toBeNull();
    expect(run.details?.assertions[0]).toMatchObject({ expected: 'SERVING', actual: 'SERVING' });
  });

  it('a named service is asked for by name', async () => {
    const p = await peer({
      statuses: { '': 'SERVING', 'shop.Orders': 'NOT_SERVING', 'shop.Cart': 'SERVING' },
    });
    expect((await check(p.port, { service: 'shop.Cart' })).outcome).toBe('up');
    const run = await check(p.port, { service: 'shop.Orders' });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'grpc_not_serving' });
    expect(run.errorMessage).toMatch(/says service “shop\.Orders” is NOT_SERVING/);
  });

  it('a service the server does not know is grpc_not_serving, saying so', async () => {
    const p = await peer();
    const run = await check(p.port, { service: 'shop.Nothing' });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'grpc_not_serving' });
    expect(run.errorMessage).toMatch(/does not know service “shop\.Nothing”/);
  });

  it('a status that changes is seen on the next check', async () => {
    const p = await peer();
    p.health!.setStatus('', 'NOT_SERVING');
    expect((await check(p.port)).errorCode).toBe('grpc_not_serving');
  });

  it('a server without the health service is grpc_not_serving (UNIMPLEMENTED)', async () => {
    const p = await peer({ health: false });
    const run = await check(p.port);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'grpc_not_serving' });
    expect(run.errorMessage).toMatch(/has no health service/);
  });

  it('over IPv6 to ::1', async () => {
    const p = await peer({ host: '::1' });
    expect((await check(p.port, { host: '::1' })).outcome).toBe('up');
  });

  it('slower than the threshold degrades', async () => {
    const p = await peer();
    const run = await check(p.port, { degradedThresholdMs: 0 });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
  });
});

describe('TLS', () => {
  it('a trusted certificate is up, timed and captured', async () => {
    const p = await peer({ pair: certs.trusted });
    const run = await check(p.port, { tls: true });
    expect(run).toMatchObject({ outcome: 'up', certExpiresAt: certs.validTo });
    expect(run.phases.tls).not.toBeNull();
    expect(run.details?.certificate).toMatchObject({ trusted: true });
  });

  it('expired, wrong name and untrusted are each their own code', async () => {
    const expired = await peer({ pair: certs.expired });
    expect((await check(expired.port, { tls: true })).errorCode).toBe('tls_cert_expired');
    const wrong = await peer({ pair: certs.wrongHost });
    expect((await check(wrong.port, { tls: true })).errorCode).toBe('tls_hostname_mismatch');
    const self = await peer({ pair: certs.selfSigned });
    expect((await check(self.port, { tls: true })).errorCode).toBe('tls_cert_untrusted');
    expect((await check(self.port, { tls: true, ignoreTls: true })).outcome).toBe('up');
  });

  it('expiring within 14 days degrades', async () => {
    const p = await peer({ pair: certs.expiringSoon });
    expect((await check(p.port, { tls: true })).errorCode).toBe('tls_cert_expiring');
  });
});

describe('what fails', () => {
  it('a refused connection is connect_refused', async () => {
    expect((await check(await refusedPort())).errorCode).toBe('connect_refused');
  });

  it('an HTTP/1 server is a protocol_error, not a crash', async () => {
    const server = http.createServer((_req, res) => res.end('hello'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const run = await check((server.address() as AddressInfo).port);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'protocol_error' });
    expect(run.errorMessage).toMatch(/does not speak gRPC over HTTP\/2/);
  });
});

describe('the two messages of grpc.health.v1', () => {
  it('a request names the service in field 1; the whole server sends an empty message', () => {
    expect(healthRequestFrame('')).toEqual(Buffer.from([0, 0, 0, 0, 0]));
    expect(healthRequestFrame('a.B')).toEqual(
      Buffer.from([0, 0, 0, 0, 5, 0x0a, 3, 0x61, 0x2e, 0x42]),
    );
  });

  it('a response carries the status in field 1; absent is UNKNOWN', () => {
    expect(parseHealthResponse(Buffer.from([0, 0, 0, 0, 2, 0x08, 1]))).toBe(1);
    expect(parseHealthResponse(Buffer.from([0, 0, 0, 0, 0]))).toBe(0);
    expect(parseHealthResponse(Buffer.from([1, 0, 0, 0, 0]))).toBeNull();
  });
});
