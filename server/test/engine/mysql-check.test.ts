import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMysqlCheck, type MysqlCheckSpec } from '../../src/engine/checks/mysql/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { closedAfterEach, expectDown } from '../fixtures/check-runs.js';
import { testCertificates } from '../fixtures/certs.js';
import { startFakeMysqlTls, startGarbagePeer } from '../fixtures/database-peers.js';
import { refusedPort, startSilentServer } from '../fixtures/target-server.js';

/** Set in CI and by `npm test`; without it the test runner says the real-server half did not run. */
const mysqlUrl = process.env.PAGEWATCH_TEST_MYSQL_URL || undefined;

const certs = testCertificates();
const peer = closedAfterEach();

function check(port: number, overrides: Partial<MysqlCheckSpec> = {}): Promise<CheckRun> {
  return runMysqlCheck(
    {
      host: '127.0.0.1',
      port,
      database: '',
      username: 'root',
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

describe('a MySQL peer that is not there or does not speak', () => {
  it('is down with connect_refused when nothing listens', async () => {
    expectDown(await check(await refusedPort()), 'connect_refused', /refused/);
  });

  it('is down with timeout at the deadline when the peer never greets, and hangs up', async () => {
    const silent = await peer(startSilentServer());
    const started = Date.now();
    const run = await check(silent.port, { timeoutMs: 500 });
    expectDown(run, 'timeout', /within 500 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => silent.openConnections()).toBe(0);
  });

  it('is down, not crashed, when the peer greets with something else', async () => {
    const garbage = await peer(startGarbagePeer('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const socketFirst = await peer(
      startGarbagePeer('x'.repeat(3)), // a peer that waits for us and says too little
    );
    for (const port of [garbage.port, socketFirst.port]) {
      const run = await check(port, { timeoutMs: 800 });
      expect(run.outcome).toBe('down');
      expect(run.errorCode).not.toBeNull();
    }
  });
});

describe('TLS to a MySQL peer', () => {
  const cases = [
    ['self-signed', certs.selfSigned, 'tls_cert_untrusted', /self-signed|not trusted/],
    ['expired', certs.expired, 'tls_cert_expired', /expired/],
    ['for another name', certs.wrongHost, 'tls_hostname_mismatch', /not valid for 127\.0\.0\.1/],
  ] as const;
  for (const [what, pair, code, message] of cases) {
    it(`is down with ${code} for a certificate that is ${what}, before the password is sent`, async () => {
      const server = await peer(startFakeMysqlTls(pair));
      const run = await check(server.port, { tls: true, password: 'never-sent' });
      expectDown(run, code, message);
      expect(run.details?.certificate).not.toBeNull();
      expect(run.phases.tls).not.toBeNull();
      // The login packet (user and password) would be the first thing sent over TLS.
      expect(server.bytesAfterHandshake()).toBe(0);
    });
  }
});

describe.each(mysqlUrl ? [new URL(mysqlUrl)] : [])('the real MySQL/MariaDB at %s', (url) => {
  const port = Number(url.port || 3306);
  const database = decodeURIComponent(url.pathname.slice(1));
  const username = decodeURIComponent(url.username) || 'root';
  const password = decodeURIComponent(url.password);
  const real = (overrides: Partial<MysqlCheckSpec> = {}) =>
    check(port, { host: url.hostname, database, username, password, ...overrides });
  const user = `pw_check_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection;

  beforeAll(async () => {
    admin = await mysql.createConnection({
      host: url.hostname,
      port,
      user: username,
      password,
    });
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'Sekr3t-pw'`);
    await admin.query(`CREATE USER '${user}'@'localhost' IDENTIFIED BY 'Sekr3t-pw'`);
  });

  afterAll(async () => {
    await admin.query(`DROP USER IF EXISTS '${user}'@'%'`);
    await admin.query(`DROP USER IF EXISTS '${user}'@'localhost'`);
    await admin.end();
  });

  it('is up after connecting and running SELECT 1, with the phases timed', async () => {
    const run = await real();
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).not.toBeNull();
    expect(run.phases.tls).toBeNull();
  });

  it('runs the query in a read-only session bounded by the timeout', async () => {
    const readOnly = await real({ query: 'SELECT @@session.tx_read_only', expected: '1' });
    expect(readOnly.errorMessage).toBeNull();
    expect(readOnly.details?.assertions).toEqual([
      expect.objectContaining({ kind: 'value', actual: '1', passed: true }),
    ]);
    const bounded = await real({
      query: 'SELECT @@session.max_statement_time',
      expected: '2.000000',
    });
    expect(bounded.errorMessage).toBeNull();
  });

  it('is down with query_failed when the query tries to write', async () => {
    const run = await real({ query: `CREATE TEMPORARY TABLE ${user}_t (a int)`, database: 'test' });
    // MariaDB allows temporary tables in read-only transactions; a real table is refused.
    const write = await real({ query: `CREATE TABLE ${user}_t (a int)`, database: 'test' });
    expect(run.outcome === 'up' || run.errorCode === 'query_failed').toBe(true);
    expect(write.outcome).toBe('down');
    expect(write.errorCode).toBe('query_failed');
  });

  it('is down with unexpected_value, naming both, when the first value differs', async () => {
    const run = await real({ query: "SELECT 'green', 'ignored'", expected: 'blue' });
    expectDown(run, 'unexpected_value', /answered “green”, expected “blue”/);
  });

  it('is down with query_failed for SQL the server rejects', async () => {
    expectDown(await real({ query: 'SELEKT 1' }), 'query_failed', /syntax/);
  });

  it('is down with timeout when the query outlasts the timeout', async () => {
    // 2 s: the connection, login and session settings of a loaded machine fit well inside it,
    // so the deadline meets the query, not the connection (that would be connect_timeout).
    const run = await real({ query: 'SELECT SLEEP(10)', timeoutMs: 2000 });
    // MariaDB's max_statement_time ends SLEEP() quietly with 1, so the deadline may be first.
    expect(['timeout', null]).toContain(run.errorCode);
    const started = Date.now();
    const benchmark = await real({
      query: 'SELECT BENCHMARK(5000000000, MD5(1))',
      timeoutMs: 2000,
    });
    expectDown(benchmark, 'timeout', /2000 ms|timeout|interrupted|exceeded/i);
    // Ended at its deadline, not when the query would have (minutes).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('logs in with a password, and is down with auth_failed for a wrong one', async () => {
    const ok = await real({ username: user, password: 'Sekr3t-pw', database: '' });
    expect(ok.errorMessage).toBeNull();
    const wrong = await real({ username: user, password: 'wrong-pw', database: '' });
    expectDown(wrong, 'auth_failed', /refused the login/);
  });

  it('is down with tls_handshake_failed when TLS is asked of a server without it', async () => {
    const run = await real({ tls: true });
    expectDown(run, 'tls_handshake_failed', /does not accept TLS/);
  });
});
