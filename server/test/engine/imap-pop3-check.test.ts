import { afterAll, describe, expect, it } from 'vitest';
import { runImapCheck } from '../../src/engine/checks/imap/index.js';
import type { MailGreetingSpec } from '../../src/engine/checks/mail-greeting.js';
import { runPop3Check } from '../../src/engine/checks/pop3/index.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { testCertificates } from '../fixtures/certs.js';
import { startGreeter, type Greeter } from '../fixtures/mail-greeters.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer } from '../fixtures/tcp-server.js';

const certs = testCertificates();
const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

async function greeter(...args: Parameters<typeof startGreeter>): Promise<Greeter> {
  const g = await startGreeter(...args);
  open.push(g);
  return g;
}

const spec = (port: number, over: Partial<MailGreetingSpec> = {}): MailGreetingSpec => ({
  host: '127.0.0.1',
  port,
  security: 'starttls',
  ignoreTrust: false,
  warnDays: 14,
  timeoutMs: 1500,
  degradedThresholdMs: null,
  secureContext: secureContextFor([certs.ca]),
  ...over,
});

const checks = {
  imap: (s: MailGreetingSpec): Promise<CheckRun> =>
    runImapCheck(s, { signal: new AbortController().signal }),
  pop3: (s: MailGreetingSpec): Promise<CheckRun> =>
    runPop3Check(s, { signal: new AbortController().signal }),
};

describe.each(['imap', 'pop3'] as const)('%s greeting checks', (protocol) => {
  const check = checks[protocol];

  it('is up after the greeting and STARTTLS, with the certificate captured', async () => {
    const g = await greeter(protocol, certs.trusted);
    const run = await check(spec(g.port));
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, certExpiresAt: certs.validTo });
    expect(run.phases.tls).toBeGreaterThanOrEqual(0);
    expect(run.details?.assertions.map((a) => a.target)).toEqual([
      'expiry',
      'name',
      'trust',
      'banner',
    ]);
  });

  it('is up with TLS from the first byte (993/995)', async () => {
    const g = await greeter(protocol, certs.trusted, { implicit: true });
    const run = await check(spec(g.port, { security: 'tls' }));
    expect(run.outcome).toBe('up');
    expect(run.certExpiresAt).toBe(certs.validTo);
  });

  it('is down with tls_cert_expired after STARTTLS with an expired certificate', async () => {
    const g = await greeter(protocol, certs.expired);
    const run = await check(spec(g.port));
    expect(run.errorCode).toBe('tls_cert_expired');
  });

  it('is down with capability_missing when STARTTLS is refused', async () => {
    const g = await greeter(protocol, certs.trusted, { starttls: false });
    const run = await check(spec(g.port));
    expect(run.errorCode).toBe('capability_missing');
    expect(run.errorMessage).toMatch(/^The server refused STARTTLS/);
    const plain = await check(spec(g.port, { security: 'none' }));
    expect(plain.outcome).toBe('up');
  });

  it('is down with protocol_error when the greeting is not a welcome', async () => {
    const peer = await startTcpServer('banner', { banner: '220 mx.test ESMTP\r\n' });
    open.push(peer);
    const run = await check(spec(peer.port));
    expect(run.errorCode).toBe('protocol_error');
    expect(run.errorMessage).toContain(`did not greet as ${protocol.toUpperCase()}`);
  });

  it('is down with timeout when no greeting comes, and connect_refused when nothing listens', async () => {
    const silent = await startTcpServer('silent');
    open.push(silent);
    expect((await check(spec(silent.port, { timeoutMs: 300 }))).errorCode).toBe('timeout');
    expect((await check(spec(await refusedPort()))).errorCode).toBe('connect_refused');
  });
});
