import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisMonitorInput } from '@pagewatch/contract';
import { runRedisCheck, type RedisCheckSpec } from '../../src/engine/checks/redis/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { closedAfterEach, expectDown } from '../fixtures/check-runs.js';
import { testCertificates } from '../fixtures/certs.js';
import {
  REDIS_SERVER,
  startGarbagePeer,
  startOwnRedis,
  startTlsFront,
} from '../fixtures/database-peers.js';
import { refusedPort, startSilentServer } from '../fixtures/target-server.js';

/** Set in CI and by `npm test`; without it the test runner says the real-server half did not run. */
const redisUrl = process.env.PAGEWATCH_TEST_REDIS_URL || undefined;

const certs = testCertificates();
const peer = closedAfterEach();

function check(port: number, overrides: Partial<RedisCheckSpec> = {}): Promise<CheckRun> {
  return runRedisCheck(
    {
      host: '127.0.0.1',
      port,
      database: 0,
      username: '',
      password: '',
      tls: false,
      ignoreTrust: false,
      warnDays: 14,
      command: '',
      expected: '',
      timeoutMs: 2000,
      degradedThresholdMs: null,
      extraCa: [certs.ca],
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('the commands a Redis monitor may run', () => {
  const input = (command: string) =>
    RedisMonitorInput.safeParse({ type: 'redis', name: 'cache', host: 'cache.internal', command });

  it('are read commands only, so a typed command can never change data', () => {
    for (const ok of ['', 'PING', 'get "user:1 name"', 'HGET session:1 user', 'DBSIZE']) {
      expect(input(ok).success, ok).toBe(true);
    }
    for (const bad of ['SET a b', 'FLUSHALL', 'DEL a', 'CONFIG SET requirepass x', 'EVAL "x" 0']) {
      const parsed = input(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/Only read commands/);
    }
  });

  it('ask for the command when an expected value is given without one', () => {
    const parsed = RedisMonitorInput.safeParse({
      type: 'redis',
      name: 'cache',
      host: 'cache.internal',
      expected: 'PONG',
    });
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['expected'] });
  });
});

describe('a Redis peer that is not there or does not speak', () => {
  it('is down with connect_refused when nothing listens', async () => {
    expectDown(await check(await refusedPort()), 'connect_refused', /refused/);
  });

  it('is down with timeout at the deadline when the peer never answers, and hangs up', async () => {
    const silent = await peer(startSilentServer());
    const started = Date.now();
    const run = await check(silent.port, { timeoutMs: 500 });
    expectDown(run, 'timeout', /within 500 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => silent.openConnections()).toBe(0);
  });

  it('is down, not crashed, when the peer answers with something else', async () => {
    const garbage = await peer(startGarbagePeer('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const run = await check(garbage.port, { timeoutMs: 800 });
    expect(run.outcome).toBe('down');
    expect(run.errorCode).not.toBeNull();
  });
});

describe('TLS to a Redis peer', () => {
  const cases = [
    ['self-signed', certs.selfSigned, 'tls_cert_untrusted', /self-signed|not trusted/],
    ['expired', certs.expired, 'tls_cert_expired', /expired/],
    ['for another name', certs.wrongHost, 'tls_hostname_mismatch', /not valid for 127\.0\.0\.1/],
  ] as const;
  for (const [what, pair, code, message] of cases) {
    it(`is down with ${code} for a certificate that is ${what}, before AUTH is sent`, async () => {
      const front = await peer(startTlsFront(pair, null, 'none'));
      const run = await check(front.port, { tls: true, password: 'never-sent' });
      expectDown(run, code, message);
      expect(run.details?.certificate).not.toBeNull();
      expect(front.bytesAfterHandshake()).toBe(0);
    });
  }
});

// A redis-server of the suite's own, so a password can be set without touching the shared one.
describe.each(REDIS_SERVER ? ['redis-server'] : [])('a Redis started by the suite (%s)', () => {
  const password = 'Sekr3t-redis';
  let own: { port: number; close(): Promise<void> } | null = null;
  beforeAll(async () => {
    own = await startOwnRedis(password);
  });
  afterAll(async () => {
    await own?.close();
  });
  const port = () => own?.port ?? 0;

  it('is up with the right password, the phases timed', async () => {
    const run = await check(port(), { password });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).not.toBeNull();
  });

  it('is down with auth_failed for a wrong password, or none, and never shows it', async () => {
    const wrong = await check(port(), { password: 'wrong-password' });
    expectDown(wrong, 'auth_failed', /refused the login/);
    expect(wrong.errorMessage).not.toContain('wrong-password');
    expectDown(await check(port()), 'auth_failed', /NOAUTH/);
  });

  it('is down with query_failed for a database the server does not have', async () => {
    const run = await check(port(), { password, database: 200 });
    expectDown(run, 'query_failed', /DB index is out of range/);
  });

  it('is up over TLS through a trusted front, the certificate captured', async () => {
    const front = await peer(startTlsFront(certs.trusted, port(), 'none'));
    const run = await check(front.port, {
      password,
      tls: true,
      command: 'ECHO hi',
      expected: 'hi',
    });
    expect(run.errorMessage).toBeNull();
    expect(run.outcome).toBe('up');
    expect(run.phases.tls).not.toBeNull();
    expect(run.details?.certificate?.trusted).toBe(true);
    expect(run.certExpiresAt).toBe(certs.validTo);
  });

  it('is degraded when the certificate expires within the warning days', async () => {
    const front = await peer(startTlsFront(certs.expiringSoon, port(), 'none'));
    const run = await check(front.port, { password, tls: true });
    expect(run.outcome).toBe('degraded');
    expect(run.errorCode).toBe('tls_cert_expiring');
  });
});

describe.each(redisUrl ? [new URL(redisUrl)] : [])('the real Redis at %s', (url) => {
  const port = Number(url.port || 6379);
  const real = (overrides: Partial<RedisCheckSpec> = {}) =>
    check(port, {
      host: url.hostname,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      ...overrides,
    });

  it('is up after PING', async () => {
    const run = await real();
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
  });

  it('compares the reply (a list: its first element) with the expected value', async () => {
    const echo = await real({ command: 'ECHO "all good"', expected: 'all good' });
    expect(echo.outcome).toBe('up');
    expect(echo.details?.assertions[0]).toMatchObject({ actual: 'all good', passed: true });
    const role = await real({ command: 'ROLE', expected: 'master' });
    expect(role.errorMessage).toBeNull();
  });

  it('is down with unexpected_value for another reply, and for a missing key', async () => {
    expectDown(
      await real({ command: 'ECHO green', expected: 'blue' }),
      'unexpected_value',
      /answered “green”, expected “blue”/,
    );
    expectDown(
      await real({ command: 'GET pagewatch:test:missing-key', expected: 'x' }),
      'unexpected_value',
      /answered “NULL”/,
    );
  });

  it('is down with query_failed when the server rejects the command', async () => {
    expectDown(await real({ command: 'GET' }), 'query_failed', /wrong number of arguments/);
  });
});
