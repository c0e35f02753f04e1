import { afterEach, describe, expect, it } from 'vitest';
import { runTlsCheck, type TlsCheckSpec } from '../../src/engine/checks/tls/index.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { expectDown } from '../fixtures/check-runs.js';
import { testCertificates, type KeyAndCert } from '../fixtures/certs.js';
import { startDnsServer } from '../fixtures/dns-server.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer } from '../fixtures/tcp-server.js';
import { startTlsServer } from '../fixtures/tls-server.js';

const certs = testCertificates();
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(pair: KeyAndCert) {
  const server = await startTlsServer(pair);
  closers.push(() => server.close());
  return server;
}

function check(port: number, overrides: Partial<TlsCheckSpec> = {}): Promise<CheckRun> {
  return runTlsCheck(
    {
      host: '127.0.0.1',
      port,
      servername: '',
      warnDays: 14,
      ignoreTrust: false,
      timeoutMs: 2000,
      degradedThresholdMs: null,
      secureContext: secureContextFor([certs.ca]),
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

const assertion = (run: CheckRun, target: string) =>
  run.details?.assertions.find((a) => a.target === target);

describe('a certificate that checks out', () => {
  it('is up, timing connect and tls, with the certificate described', async () => {
    const server = await serve(certs.trusted);
    const run = await check(server.port);
    expect(run).toMatchObject({
      outcome: 'up',
      errorCode: null,
      errorMessage: null,
      httpStatus: null,
      certExpiresAt: certs.validTo,
    });
    expect(run.phases).toMatchObject({ dns: null, ttfb: null, download: null });
    expect(run.phases.connect).toBeGreaterThan(0);
    expect(run.phases.tls).toBeGreaterThan(0);
    expect(run.latencyMs).toBeGreaterThanOrEqual((run.phases.connect ?? 0) + (run.phases.tls ?? 0));
    expect(run.details?.certificate).toMatchObject({
      subject: 'localhost',
      issuer: 'Pagewatch Test CA',
      sans: ['DNS:localhost', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1'],
      notAfter: new Date(certs.validTo).toISOString(),
      trusted: true,
      verifyError: null,
    });
    expect(run.details?.certificate?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(run.details?.assertions.every((a) => a.passed)).toBe(true);
    // No SNI for an IP address (RFC 6066 §3).
    expect(server.servernames).toEqual([]);
  });

  it('resolves a host name, times the lookup and sends it as SNI', async () => {
    const server = await serve(certs.trusted);
    const dns = await startDnsServer({ localhost: ['127.0.0.1'] });
    closers.push(() => dns.close());
    const run = await check(server.port, { host: 'localhost', lookup: dns.lookup });
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).toBeGreaterThan(0);
    expect(server.servernames).toEqual(['localhost']);
  });

  it('is degraded when slower than the threshold, the lookup included', async () => {
    const server = await serve(certs.trusted);
    const lookup = () =>
      new Promise<{ address: string; family: number }[]>((resolve) =>
        setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 40),
      );
    const run = await check(server.port, { host: 'localhost', lookup, degradedThresholdMs: 30 });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
    expect(run.errorMessage).toMatch(/above the 30 ms threshold/);
    expect(run.latencyMs).toBeGreaterThanOrEqual(40);
  });

  it('sends the servername override as SNI and checks the certificate against it', async () => {
    const server = await serve(certs.wrongHost);
    const run = await check(server.port, { servername: 'other.example' });
    expect(run.outcome).toBe('up');
    expect(server.servernames).toEqual(['other.example']);
  });
});

describe('expiry', () => {
  it('expired is tls_cert_expired, with the date, and still records the certificate', async () => {
    const server = await serve(certs.expired);
    const run = await check(server.port);
    expectDown(
      run,
      'tls_cert_expired',
      new RegExp(`expired on ${new Date(certs.expiredAt).toISOString()}`),
    );
    expect(run.certExpiresAt).toBe(certs.expiredAt);
    expect(run.details?.certificate?.notAfter).toBe(new Date(certs.expiredAt).toISOString());
    expect(assertion(run, 'expiry')).toMatchObject({ passed: false, soft: false });
  });

  it('expired is down even when trust is ignored', async () => {
    const server = await serve(certs.expired);
    expectDown(await check(server.port, { ignoreTrust: true }), 'tls_cert_expired', /expired/);
  });

  it('within the warning days is degraded with tls_cert_expiring and the days left', async () => {
    const server = await serve(certs.expiringSoon);
    const run = await check(server.port);
    const date = new Date(certs.expiringAt).toISOString().slice(0, 10);
    expect(run).toMatchObject({
      outcome: 'degraded',
      errorCode: 'tls_cert_expiring',
      errorMessage: `The TLS certificate of 127.0.0.1 expires in 3 days (on ${date})`,
      certExpiresAt: certs.expiringAt,
    });
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(assertion(run, 'expiry')).toEqual({
      kind: 'certificate',
      target: 'expiry',
      expected: 'more than 14 days left',
      actual: `expires in 3 days (on ${date})`,
      passed: false,
      soft: true,
    });
  });

  it('outside the warning days is up', async () => {
    const server = await serve(certs.expiringSoon);
    const run = await check(server.port, { warnDays: 2 });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
  });
});

describe('trust and name', () => {
  it('self-signed is tls_cert_untrusted', async () => {
    const server = await serve(certs.selfSigned);
    const run = await check(server.port);
    expectDown(run, 'tls_cert_untrusted', /self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    expect(run.details?.certificate).toMatchObject({
      trusted: false,
      verifyError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(assertion(run, 'trust')).toMatchObject({ passed: false });
  });

  it('a private CA is untrusted without the extra CA', async () => {
    const server = await serve(certs.trusted);
    const run = await check(server.port, { secureContext: undefined });
    expectDown(run, 'tls_cert_untrusted', /issued by Pagewatch Test CA is not trusted/);
  });

  it('self-signed is up when trust is ignored, and the trust assertion is left out', async () => {
    const server = await serve(certs.selfSigned);
    const run = await check(server.port, { ignoreTrust: true });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(assertion(run, 'trust')).toBeUndefined();
  });

  it('a certificate for another name is tls_hostname_mismatch, trusted chain or not', async () => {
    const server = await serve(certs.wrongHost);
    const run = await check(server.port);
    expectDown(
      run,
      'tls_hostname_mismatch',
      /not valid for 127\.0\.0\.1 \(it is for DNS:other\.example\)/,
    );
    expect(assertion(run, 'name')).toMatchObject({
      expected: 'valid for 127.0.0.1',
      actual: 'DNS:other.example',
      passed: false,
    });
    // The chain itself is good: only the name fails.
    expect(assertion(run, 'trust')).toMatchObject({ actual: 'trusted', passed: true });
    const ignoring = await check(server.port, { ignoreTrust: true, secureContext: undefined });
    expectDown(ignoring, 'tls_hostname_mismatch', /not valid for 127\.0\.0\.1/);
  });
});

describe('failures before a certificate', () => {
  it('a peer that speaks no TLS is tls_handshake_failed', async () => {
    const plain = await startTcpServer('echo');
    closers.push(() => plain.close());
    const run = await check(plain.port);
    expectDown(
      run,
      'tls_handshake_failed',
      new RegExp(`TLS handshake with 127\\.0\\.0\\.1:${plain.port} failed`),
    );
    expect(run.details).toEqual({ certificate: null, assertions: [] });
    expect(run.certExpiresAt).toBeNull();
  });

  it('a peer that closes during the handshake is tls_handshake_failed', async () => {
    const plain = await startTcpServer('accept-close');
    closers.push(() => plain.close());
    expectDown(await check(plain.port), 'tls_handshake_failed', /closed the connection/);
  });

  it('a closed port is connect_refused, as the tcp and http checks say it', async () => {
    const port = await refusedPort();
    expectDown(
      await check(port),
      'connect_refused',
      new RegExp(`127\\.0\\.0\\.1:${port} was refused`),
    );
  });

  it('a peer that never answers the client hello times out in the tls phase', async () => {
    const silent = await startTcpServer('silent');
    closers.push(() => silent.close());
    const run = await check(silent.port, { timeoutMs: 300 });
    expectDown(run, 'timeout', /TLS handshake with 127\.0\.0\.1:\d+ did not finish within 300 ms/);
    expect(run.phases.connect).toBeGreaterThan(0);
  });

  it('an unknown name is dns_not_found', async () => {
    const dns = await startDnsServer({});
    closers.push(() => dns.close());
    const run = await check(443, { host: 'nowhere.test', lookup: dns.lookup });
    expectDown(run, 'dns_not_found', /nowhere\.test/);
  });
});
