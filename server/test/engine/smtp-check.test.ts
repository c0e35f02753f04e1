import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSmtpCheck, type SmtpCheckSpec } from '../../src/engine/checks/smtp/index.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { testCertificates } from '../fixtures/certs.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';

const certs = testCertificates();
const servers: { close(): Promise<void> }[] = [];

/** A real SMTP server (smtp-server) on 127.0.0.1 that never accepts a mail. */
async function smtp(options: SMTPServerOptions): Promise<number> {
  const server = new SMTPServer({
    name: 'mx.test',
    logger: false,
    onAuth: (_auth, _session, done) => done(new Error('No logins here')),
    onData: (_stream, _session, done) => done(new Error('No mail here')),
    ...options,
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return (server.server.address() as AddressInfo).port;
}

let starttls: number;
let noStarttls: number;
let implicit: number;
let implicitExpired: number;
let refusing: TcpServer;
let garbage: TcpServer;
let silent: TcpServer;

beforeAll(async () => {
  [starttls, noStarttls, implicit, implicitExpired] = await Promise.all([
    smtp({ key: certs.trusted.key, cert: certs.trusted.cert, size: 10_000_000 }),
    smtp({ disabledCommands: ['STARTTLS'] }),
    smtp({ secure: true, key: certs.trusted.key, cert: certs.trusted.cert }),
    smtp({ secure: true, key: certs.expired.key, cert: certs.expired.cert }),
  ]);
  [refusing, garbage, silent] = await Promise.all([
    startTcpServer('banner', { banner: '554 5.3.2 mx.test has no service for you\r\n' }),
    startTcpServer('banner', { banner: 'SSH-2.0-OpenSSH_9.6\r\n' }),
    startTcpServer('silent'),
  ]);
  servers.push(refusing, garbage, silent);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function check(port: number, overrides: Partial<SmtpCheckSpec> = {}): Promise<CheckRun> {
  return runSmtpCheck(
    {
      host: '127.0.0.1',
      port,
      security: 'starttls',
      ignoreTrust: false,
      warnDays: 14,
      ehloName: '',
      capabilities: [],
      timeoutMs: 2000,
      degradedThresholdMs: null,
      secureContext: secureContextFor([certs.ca]),
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('an SMTP server with STARTTLS', () => {
  it('is up after the greeting, EHLO and STARTTLS, with the certificate captured', async () => {
    const run = await check(starttls);
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, certExpiresAt: certs.validTo });
    expect(run.phases.tls).toBeGreaterThanOrEqual(0);
    expect(run.phases.ttfb).toBeGreaterThanOrEqual(0);
    expect(run.details?.certificate?.trusted).toBe(true);
    // The certificate's judgement first, as on every check speaking TLS, then the protocol's.
    expect(run.details?.assertions.map((a) => a.target)).toEqual([
      'expiry',
      'name',
      'trust',
      'banner',
    ]);
    expect(run.details?.assertions.at(-1)?.actual).toMatch(/^220 mx\.test/);
  });

  it('checks the expected capabilities against the EHLO answer given after STARTTLS', async () => {
    const run = await check(starttls, { capabilities: ['auth', 'SIZE', '8BITMIME'] });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions.at(-1)).toMatchObject({
      kind: 'capability',
      expected: 'AUTH, SIZE, 8BITMIME',
      passed: true,
    });
  });

  it('is down with capability_missing naming what is missing and what is offered', async () => {
    const run = await check(starttls, { capabilities: ['SIZE', 'X-NOT-THERE'] });
    expect(run.errorCode).toBe('capability_missing');
    expect(run.errorMessage).toMatch(/^The server does not offer X-NOT-THERE \(it offers .*SIZE/);
  });

  it('is down with tls_cert_untrusted when the chain is not trusted, unless trust is ignored', async () => {
    const run = await check(starttls, { secureContext: undefined });
    expect(run.errorCode).toBe('tls_cert_untrusted');
    expect(run.details?.certificate).not.toBeNull();
    const ignored = await check(starttls, { secureContext: undefined, ignoreTrust: true });
    expect(ignored.outcome).toBe('up');
  });

  it('is down with capability_missing when STARTTLS is not offered', async () => {
    const run = await check(noStarttls);
    expect(run.errorCode).toBe('capability_missing');
    expect(run.errorMessage).toMatch(/^The server does not offer STARTTLS/);
  });

  it('without TLS, only the greeting and EHLO count', async () => {
    const run = await check(noStarttls, { security: 'none' });
    expect(run.outcome).toBe('up');
    expect(run.phases.tls).toBeNull();
    expect(run.details?.certificate).toBeNull();
  });
});

describe('an SMTP server with TLS from the first byte (465)', () => {
  it('is up, the handshake timed before the greeting', async () => {
    const run = await check(implicit, { security: 'tls' });
    expect(run.outcome).toBe('up');
    expect(run.phases.tls).toBeGreaterThanOrEqual(0);
    expect(run.certExpiresAt).toBe(certs.validTo);
  });

  it('is down with tls_cert_expired for an expired certificate', async () => {
    const run = await check(implicitExpired, { security: 'tls' });
    expect(run.errorCode).toBe('tls_cert_expired');
    expect(run.certExpiresAt).toBe(certs.expiredAt);
  });
});

describe('peers that do not serve mail', () => {
  it('is down with protocol_error when the greeting is not 220', async () => {
    const run = await check(refusing.port);
    expect(run.errorCode).toBe('protocol_error');
    expect(run.errorMessage).toBe(
      'The server greeted with 554 instead of 220: “5.3.2 mx.test has no service for you”',
    );
  });

  it('is down with protocol_error when the peer speaks another protocol', async () => {
    const run = await check(garbage.port);
    expect(run.errorCode).toBe('protocol_error');
    expect(run.errorMessage).toBe(
      'The server did not answer as an SMTP server: “SSH-2.0-OpenSSH_9.6”',
    );
  });

  it('is down with timeout when no greeting comes', async () => {
    const run = await check(silent.port, { timeoutMs: 400 });
    expect(run.errorCode).toBe('timeout');
  });

  it('is down with connect_refused when nothing listens', async () => {
    const run = await check(await refusedPort());
    expect(run.errorCode).toBe('connect_refused');
  });
});
