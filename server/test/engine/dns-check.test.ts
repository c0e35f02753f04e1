import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDnsCheck, type DnsCheckSpec } from '../../src/engine/checks/dns/index.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startDnsServer, type DnsServer } from '../fixtures/dns-server.js';
import type { CheckRun } from '../../src/engine/checks/types.js';

let server: DnsServer;

beforeAll(async () => {
  server = await startDnsServer(
    {},
    {
      'example.test': {
        A: ['10.0.0.1', '10.0.0.2'],
        AAAA: ['2001:db8:0:0:0:0:0:1'],
        NS: ['NS1.Example.test', 'ns2.example.test'],
        MX: [
          { priority: 10, exchange: 'mail.example.test' },
          { priority: 20, exchange: 'Backup.Example.test' },
        ],
        TXT: [['v=spf1 ', 'include:mail.example.test -all'], ['hello']],
        SOA: {
          nsname: 'ns1.example.test',
          hostmaster: 'hostmaster.example.test',
          serial: 2026112201,
          refresh: 7200,
          retry: 3600,
          expire: 1209600,
          minttl: 300,
        },
        CAA: [
          { flags: 0, tag: 'issue', value: 'ca.example' },
          { flags: 128, tag: 'iodef', value: 'mailto:sec@example.test' },
        ],
      },
      'www.example.test': { CNAME: ['Example.test.'] },
      'broken.example.test': 'servfail',
      'closed.example.test': 'refused',
      'black-hole.example.test': 'silent',
      'slow.example.test': { A: ['10.0.0.9'], delayMs: 60 },
    },
  );
});
afterAll(async () => server.close());

function check(overrides: Partial<DnsCheckSpec> = {}, signal?: AbortSignal): Promise<CheckRun> {
  return runDnsCheck(
    {
      host: 'example.test',
      recordType: 'A',
      resolver: server.address,
      expected: [],
      match: 'any',
      timeoutMs: 2000,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: signal ?? new AbortController().signal },
  );
}

function expectUp(run: CheckRun, actual: string): void {
  expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
  expect(run.details?.assertions).toEqual([expect.objectContaining({ actual, passed: true })]);
}

function expectDown(run: CheckRun, code: CheckRun['errorCode'], message: RegExp): void {
  expect(run.outcome).toBe('down');
  expect(run.errorCode).toBe(code);
  expect(run.errorMessage).toMatch(message);
}

describe('every record type, answers normalised', () => {
  it('A: up on any answer, timing the whole lookup as the dns phase', async () => {
    const run = await check();
    expectUp(run, '10.0.0.1, 10.0.0.2');
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(run.phases).toEqual({
      dns: run.latencyMs,
      connect: null,
      tls: null,
      ttfb: null,
      download: null,
    });
    expect(run.details?.assertions[0]).toMatchObject({
      kind: 'dns',
      target: 'A example.test records',
      expected: 'at least one record',
    });
    expect(server.queries).toContain('example.test 1');
  });

  it('AAAA compares addresses in their shortest form', async () => {
    expectUp(await check({ recordType: 'AAAA', expected: ['2001:DB8::0:1'] }), '2001:db8::1');
  });

  it('CNAME and NS ignore case and trailing dots', async () => {
    expectUp(
      await check({ host: 'www.example.test', recordType: 'CNAME', expected: ['EXAMPLE.test'] }),
      'example.test',
    );
    expectUp(
      await check({
        recordType: 'NS',
        expected: ['ns1.example.test.', 'NS2.example.test'],
        match: 'all',
      }),
      'ns1.example.test, ns2.example.test',
    );
  });

  it('MX is "priority exchange"', async () => {
    expectUp(
      await check({ recordType: 'MX', expected: ['20  backup.example.test.'] }),
      '10 mail.example.test, 20 backup.example.test',
    );
  });

  it('TXT joins the chunks of one record', async () => {
    expectUp(
      await check({ recordType: 'TXT', expected: ['v=spf1 include:mail.example.test -all'] }),
      'v=spf1 include:mail.example.test -all, hello',
    );
  });

  it('SOA is "primary serial"', async () => {
    expectUp(
      await check({ recordType: 'SOA', expected: ['NS1.example.test. 2026112201'] }),
      'ns1.example.test 2026112201',
    );
  });

  it('CAA is flags tag "value", quotes optional when typed', async () => {
    expectUp(
      await check({
        recordType: 'CAA',
        expected: ['0 ISSUE ca.example', '128 iodef "mailto:sec@example.test"'],
        match: 'all',
      }),
      '0 issue "ca.example", 128 iodef "mailto:sec@example.test"',
    );
  });
});

describe('expected values', () => {
  it('any: one of them among the answers is enough', async () => {
    expectUp(await check({ expected: ['10.9.9.9', '10.0.0.2'] }), '10.0.0.1, 10.0.0.2');
  });

  it('any: none among the answers is dns_unexpected_answer, expected vs actual', async () => {
    const run = await check({ expected: ['10.9.9.9', '10.8.8.8'] });
    expectDown(
      run,
      'dns_unexpected_answer',
      /^A example\.test: expected any of 10\.9\.9\.9, 10\.8\.8\.8 but got 10\.0\.0\.1, 10\.0\.0\.2$/,
    );
    // The lookup itself worked and was timed.
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(run.details?.assertions).toEqual([
      {
        kind: 'dns',
        target: 'A example.test records',
        expected: 'any of 10.9.9.9, 10.8.8.8',
        actual: '10.0.0.1, 10.0.0.2',
        passed: false,
        soft: false,
      },
    ]);
  });

  it('all: names the missing values', async () => {
    const run = await check({ expected: ['10.0.0.1', '10.0.0.3'], match: 'all' });
    expectDown(
      run,
      'dns_unexpected_answer',
      /expected all of 10\.0\.0\.1, 10\.0\.0\.3 but 10\.0\.0\.3 missing; got 10\.0\.0\.1, 10\.0\.0\.2/,
    );
  });

  it('an answer slower than the threshold is degraded', async () => {
    const run = await check({ host: 'slow.example.test', degradedThresholdMs: 20 });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
    expect(run.latencyMs).toBeGreaterThanOrEqual(60);
    expect(run.errorMessage).toMatch(/above the 20 ms threshold/);
  });
});

describe('failures', () => {
  it('NXDOMAIN is dns_not_found', async () => {
    const run = await check({ host: 'missing.example.test' });
    expectDown(run, 'dns_not_found', /^missing\.example\.test does not exist \(NXDOMAIN\)$/);
    expect(run.latencyMs).toBeNull();
    expect(run.details?.assertions[0]).toMatchObject({ actual: null, passed: false });
  });

  it('a name without records of the type is dns_not_found naming the type', async () => {
    const run = await check({ host: 'www.example.test', recordType: 'MX' });
    expectDown(run, 'dns_not_found', /^www\.example\.test has no MX records$/);
  });

  it('SERVFAIL and REFUSED are dns_server_failure', async () => {
    expectDown(
      await check({ host: 'broken.example.test' }),
      'dns_server_failure',
      /answered SERVFAIL for A broken\.example\.test/,
    );
    expectDown(
      await check({ host: 'closed.example.test' }),
      'dns_server_failure',
      /refused the query/,
    );
  });

  it('a resolver that never answers is dns_timeout within the timeout', async () => {
    const run = await check({ host: 'black-hole.example.test', timeoutMs: 300 });
    expectDown(
      run,
      'dns_timeout',
      new RegExp(
        `^127\\.0\\.0\\.1:${server.port} did not answer A black-hole\\.example\\.test within 300 ms$`,
      ),
    );
  });

  it('a resolver port with nothing listening is dns_server_failure', async () => {
    const port = await refusedPort();
    const run = await check({ resolver: `127.0.0.1:${port}` });
    expectDown(run, 'dns_server_failure', /could not be reached for A example\.test/);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = check(
      { host: 'black-hole.example.test', timeoutMs: 10_000 },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 20);
    const run = await pending;
    expectDown(run, 'timeout', /stopped during the DNS lookup/);
  });
});
