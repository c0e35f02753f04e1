import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  runPostgresCheck,
  type PostgresCheckSpec,
} from '../../src/engine/checks/postgres/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { closedAfterEach, expectDown } from '../fixtures/check-runs.js';
import { testCertificates } from '../fixtures/certs.js';
import { startGarbagePeer, startTlsFront } from '../fixtures/database-peers.js';
import { refusedPort, startSilentServer } from '../fixtures/target-server.js';
import { postgresUrl } from '../support/engines.js';

const certs = testCertificates();
const peer = closedAfterEach();

function check(port: number, overrides: Partial<PostgresCheckSpec> = {}): Promise<CheckRun> {
  return runPostgresCheck(
    {
      host: '127.0.0.1',
      port,
      database: '',
      username: 'postgres',
      password: '',
      tls: false,
      ignoreTrust: false,
      warnDays: 14,
      query: '',
      expected: '',
      timeoutMs: 2000,
      degradedThresholdMs: null,
      extraCa: [certs.ca],
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('a PostgreSQL peer that is not there or does not speak', () => {
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
    const run = await check(garbage.port);
    expect(run.outcome).toBe('down');
    expect(run.errorCode).not.toBeNull();
  });
});

describe('TLS to a PostgreSQL peer', () => {
  const cases = [
    ['self-signed', certs.selfSigned, 'tls_cert_untrusted', /self-signed|not trusted/],
    ['expired', certs.expired, 'tls_cert_expired', /expired/],
    ['for another name', certs.wrongHost, 'tls_hostname_mismatch', /not valid for 127\.0\.0\.1/],
  ] as const;
  for (const [what, pair, code, message] of cases) {
    it(`is down with ${code} for a certificate that is ${what}, with the certificate shown`, async () => {
      const front = await peer(startTlsFront(pair, null, 'postgres'));
      const run = await check(front.port, { tls: true });
      expectDown(run, code, message);
      expect(run.details?.certificate?.notAfter).toBeTruthy();
      expect(run.certExpiresAt).not.toBeNull();
    });
  }

  it('accepts a self-signed certificate when trust is ignored (the name and expiry still count)', async () => {
    const front = await peer(startTlsFront(certs.selfSigned, null, 'postgres'));
    const run = await check(front.port, { tls: true, ignoreTrust: true, timeoutMs: 800 });
    // Nobody is behind this front, so the check gets as far as waiting for the server.
    expectDown(run, 'timeout', /within 800 ms/);
    expect(run.details?.certificate).not.toBeNull();
    expect(run.phases.tls).not.toBeNull();
  });
});

// The real-server half runs where PAGEWATCH_TEST_POSTGRES_URL names one (CI, `npm test`); the
// test runner says so when it does not. Trust auth there, so a bad login is a role it lacks.
describe.each(postgresUrl ? [new URL(postgresUrl)] : [])('the real PostgreSQL at %s', (url) => {
  const port = Number(url.port || 5432);
  const database = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  const username = decodeURIComponent(url.username) || 'postgres';
  const real = (overrides: Partial<PostgresCheckSpec> = {}) =>
    check(port, { host: url.hostname, database, username, ...overrides });
  const role = `pw_check_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | null = null;

  afterAll(async () => {
    if (admin === null) return;
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  it('is up after connecting and running SELECT 1, with the phases timed', async () => {
    const run = await real();
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).not.toBeNull();
    expect(run.phases.tls).toBeNull();
  });

  it('runs the query in a read-only session bounded by the timeout', async () => {
    const readOnly = await real({
      query: "SELECT current_setting('transaction_read_only')",
      expected: 'on',
    });
    expect(readOnly.outcome).toBe('up');
    expect(readOnly.details?.assertions).toEqual([
      expect.objectContaining({ kind: 'value', expected: 'on', actual: 'on', passed: true }),
    ]);
    const bounded = await real({ query: 'SHOW statement_timeout', expected: '2s' });
    expect(bounded.outcome).toBe('up');
  });

  it('is down with query_failed when the query tries to write', async () => {
    const run = await real({ query: `CREATE TABLE ${role}_t (a int)` });
    expectDown(run, 'query_failed', /read-only/);
  });

  it('is down with unexpected_value, naming both, when the first value differs', async () => {
    const run = await real({ query: "SELECT 'green', 'ignored'", expected: 'blue' });
    expectDown(run, 'unexpected_value', /answered “green”, expected “blue”/);
    expect(run.details?.assertions[0]).toMatchObject({ actual: 'green', passed: false });
  });

  it('compares a NULL or an empty result as no value', async () => {
    const empty = await real({ query: 'SELECT 1 WHERE false', expected: '1' });
    expectDown(empty, 'unexpected_value', /returned no value/);
    const nil = await real({ query: 'SELECT NULL', expected: 'x' });
    expectDown(nil, 'unexpected_value', /answered “NULL”/);
  });

  it('is down with query_failed for SQL the server rejects', async () => {
    expectDown(await real({ query: 'SELEKT 1' }), 'query_failed', /syntax error/);
  });

  it('is down with timeout when the query outlasts the timeout', async () => {
    // 2 s: the connection and login of a loaded machine fit well inside it, so the deadline
    // meets the query, not the connection (that would be connect_timeout).
    const run = await real({ query: 'SELECT pg_sleep(10)', timeoutMs: 2000 });
    expectDown(run, 'timeout', /2000 ms|cancel/);
  });

  it('is down with auth_failed for a user the server does not know', async () => {
    const run = await real({ username: `${role}_nobody` });
    expectDown(run, 'auth_failed', /refused the login/);
  });

  it('logs in as a role with a password and never shows the password', async () => {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create role ${role} login password 'Sekr3t-pw'`);
    const run = await real({
      username: role,
      password: 'Sekr3t-pw',
      query: 'SELECT current_user',
      expected: role,
    });
    expect(run.outcome).toBe('up');
  });

  it('is down with query_failed for a database that does not exist', async () => {
    const run = await real({ database: `${role}_nodb` });
    expectDown(run, 'query_failed', /does not exist/);
  });

  it('is down with tls_handshake_failed when TLS is asked of a server without it', async () => {
    const run = await real({ tls: true });
    expectDown(run, 'tls_handshake_failed', /does not accept TLS/);
  });

  it('is up over TLS through a trusted front, the certificate captured and the handshake timed', async () => {
    const front = await peer(startTlsFront(certs.trusted, port, 'postgres'));
    const run = await check(front.port, { database, username, tls: true });
    expect(run.errorMessage).toBeNull();
    expect(run.outcome).toBe('up');
    expect(run.phases.tls).not.toBeNull();
    expect(run.details?.certificate?.trusted).toBe(true);
    expect(run.certExpiresAt).toBe(certs.validTo);
  });

  it('is degraded with tls_cert_expiring when the certificate expires within the warning days', async () => {
    const front = await peer(startTlsFront(certs.expiringSoon, port, 'postgres'));
    const run = await check(front.port, { database, username, tls: true });
    expect(run.outcome).toBe('degraded');
    expect(run.errorCode).toBe('tls_cert_expiring');
  });

  it('is degraded with degraded_latency above the threshold', async () => {
    const run = await real({ query: 'SELECT pg_sleep(0.05)', degradedThresholdMs: 1 });
    expect(run.outcome).toBe('degraded');
    expect(run.errorCode).toBe('degraded_latency');
  });
});
