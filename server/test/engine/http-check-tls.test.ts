import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCertificates } from '../fixtures/certs.js';
import {
  startSilentServer,
  startTargetServer,
  type TargetServer,
  type TlsMode,
} from '../fixtures/target-server.js';
import { check, keyword } from './http-spec.js';

const servers = new Map<TlsMode | 'plain', TargetServer>();

function target(mode: TlsMode | 'plain'): TargetServer {
  const server = servers.get(mode);
  if (server === undefined) throw new Error(`no ${mode} server`);
  return server;
}

function caOf(server: TargetServer): string[] {
  if (server.ca === undefined) throw new Error('no CA');
  return [server.ca];
}

beforeAll(async () => {
  for (const mode of ['trusted', 'expired', 'wrong-host', 'self-signed'] as const) {
    servers.set(mode, await startTargetServer({ tls: mode }));
  }
  servers.set('plain', await startTargetServer());
});

afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

describe('a certificate signed by a CA given as `ca`', () => {
  it('is up with every phase timed on a hostname, and the expiry captured', async () => {
    const server = target('trusted');
    const run = await check(`https://localhost:${server.port}/ok`, { ca: caOf(server) });
    expect(run).toMatchObject({
      outcome: 'up',
      httpStatus: 200,
      certExpiresAt: server.certValidTo,
    });
    for (const phase of Object.values(run.phases)) expect(phase).toBeGreaterThanOrEqual(0);
    expect(server.requests.at(-1)?.servername).toBe('localhost');
  });

  it('times no DNS and sends no SNI for an IP literal', async () => {
    const server = target('trusted');
    const run = await check(`${server.url}/ok`, { ca: caOf(server) });
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).toBeNull();
    expect(run.phases.tls).toBeGreaterThan(0);
    expect(server.requests.at(-1)?.servername).toBeNull();
  });

  it('is untrusted without the CA, sending no request but still reading the expiry', async () => {
    const server = target('trusted');
    const before = server.requests.length;
    const run = await check(`${server.url}/ok`);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'tls_cert_untrusted' });
    expect(run.errorMessage).toContain('Pagewatch Test CA');
    expect(run.certExpiresAt).toBe(server.certValidTo);
    expect(run.phases.tls).not.toBeNull();
    expect(server.requests.length).toBe(before);
    await server.waitForNoConnections();
  });

  it('keeps the cert of a redirect target reached from plain http', async () => {
    const tls = target('trusted');
    const to = encodeURIComponent(`https://localhost:${tls.port}/ok`);
    const run = await check(`${target('plain').url}/redirect/1?to=${to}`, { ca: caOf(tls) });
    expect(run).toMatchObject({ outcome: 'up', certExpiresAt: tls.certValidTo });
  });
});

describe('bad certificates', () => {
  it('reports an expired certificate as tls_cert_expired with its date', async () => {
    const server = target('expired');
    const run = await check(`${server.url}/ok`, { ca: caOf(server) });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'tls_cert_expired' });
    expect(run.certExpiresAt).toBe(testCertificates().expiredAt);
    expect(run.certExpiresAt).toBeLessThan(Date.now());
    expect(run.errorMessage).toContain(new Date(testCertificates().expiredAt).toISOString());
  });

  it('reports a self-signed certificate as tls_cert_untrusted', async () => {
    const run = await check(`${target('self-signed').url}/ok`);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'tls_cert_untrusted' });
    expect(run.errorMessage).toContain('self-signed');
  });

  it('reports a certificate for another name as tls_hostname_mismatch', async () => {
    const server = target('wrong-host');
    const run = await check(`https://localhost:${server.port}/ok`, { ca: caOf(server) });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'tls_hostname_mismatch' });
    expect(run.errorMessage).toBe(
      'The TLS certificate is not valid for localhost (it is for DNS:other.example)',
    );
  });

  it.each(['expired', 'self-signed', 'wrong-host'] as const)(
    'ignores a %s certificate with ignoreTls, still capturing its expiry',
    async (mode) => {
      const server = target(mode);
      const run = await check(`${server.url}/ok`, { ignoreTls: true });
      expect(run).toMatchObject({ outcome: 'up', certExpiresAt: server.certValidTo });
    },
  );

  it('reports a peer that does not speak TLS as tls_handshake_failed', async () => {
    const run = await check(`https://127.0.0.1:${target('plain').port}/ok`);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'tls_handshake_failed' });
    expect(run.certExpiresAt).toBeNull();
  });

  it('times out a stalled handshake with the generic timeout', async () => {
    const silent = await startSilentServer();
    try {
      const run = await check(`https://127.0.0.1:${silent.port}/ok`, { timeoutMs: 150 });
      expect(run).toMatchObject({ outcome: 'down', errorCode: 'timeout' });
      expect(run.errorMessage).toBe(
        `TLS handshake with 127.0.0.1:${silent.port} did not finish within 150 ms`,
      );
      expect(run.phases.connect).not.toBeNull();
      await expect.poll(() => silent.openConnections()).toBe(0);
    } finally {
      await silent.close();
    }
  });

  it('closes every TLS connection, failed or not', async () => {
    const server = target('trusted');
    const runs = await Promise.all([
      check(`${server.url}/ok`),
      check(`${server.url}/ok`, { ca: caOf(server) }),
      check(`${server.url}/hang`, { ca: caOf(server), timeoutMs: 100 }),
      check(`${server.url}/reset`, { ca: caOf(server) }),
      check(`${server.url}/huge?mb=4&tail=x`, {
        ca: caOf(server),
        assertions: [keyword('x!')],
      }),
    ]);
    expect(runs.map((r) => r.errorCode)).toEqual([
      'tls_cert_untrusted',
      null,
      'timeout',
      'connection_reset',
      'response_too_large',
    ]);
    await server.waitForNoConnections();
  });
});
