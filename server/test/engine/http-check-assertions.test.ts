import type { Assertion, AssertionResult } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedExec } from '../../src/engine/checks/http/bounded-regex.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { startDnsServer, type DnsServer } from '../fixtures/dns-server.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { check, keyword } from './http-spec.js';

let server: TargetServer;
let tlsServer: TargetServer;
let selfSigned: TargetServer;
let dual: TargetServer;
let dns: DnsServer;

beforeAll(async () => {
  server = await startTargetServer();
  tlsServer = await startTargetServer({ tls: 'trusted' });
  selfSigned = await startTargetServer({ tls: 'self-signed' });
  dual = await startTargetServer({ dualStack: true });
  dns = await startDnsServer(
    {},
    {
      'dual.test': { A: ['127.0.0.1'], AAAA: ['::1'] },
      'v6only.test': { AAAA: ['::1'] },
    },
  );
});

afterAll(async () => {
  await Promise.all([server, tlsServer, selfSigned, dual].map((s) => s.close()));
  await dns.close();
});

const DOC = {
  status: 'ok',
  version: 3,
  data: { ok: true, tags: ['eu', 'prod'], 'key with space': 'yes' },
  items: [
    { id: 1, name: 'one' },
    { id: 2, name: 'two' },
  ],
};

function jsonUrl(doc: unknown = DOC): string {
  return `${server.url}/text?type=application%2Fjson&body=${encodeURIComponent(JSON.stringify(doc))}`;
}

function textUrl(body: string): string {
  return `${server.url}/text?body=${encodeURIComponent(body)}`;
}

/** The result of the one assertion under test (the status result comes first). */
function second(run: CheckRun): AssertionResult {
  const result = run.details?.assertions[1];
  if (result === undefined) throw new Error(`no assertion result: ${JSON.stringify(run)}`);
  return result;
}

function json(path: string, op: Extract<Assertion, { kind: 'json' }>['op'], value = ''): Assertion {
  return { kind: 'json', path, op, value, soft: false };
}

describe('the status code', () => {
  it('is the first result, passed, with expected and actual', async () => {
    const run = await check(`${server.url}/ok`, { assertions: [keyword('OK')] });
    expect(run.details?.assertions[0]).toEqual({
      kind: 'status',
      target: 'status code',
      expected: '200-299',
      actual: '200 OK',
      passed: true,
      soft: false,
    });
  });

  it('fails alone on a refused status, the body unread', async () => {
    const run = await check(`${server.url}/status/503`, { assertions: [keyword('x')] });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'http_status' });
    expect(run.details?.assertions).toEqual([
      expect.objectContaining({
        expected: '200-299',
        actual: '503 Service Unavailable',
        passed: false,
      }),
    ]);
  });
});

describe('keyword assertions', () => {
  it('report where the keyword was found', async () => {
    const run = await check(textUrl('Hello World'), { assertions: [keyword('World')] });
    expect(run.outcome).toBe('up');
    expect(second(run)).toMatchObject({
      kind: 'keyword',
      target: 'body',
      expected: 'contains "World"',
      actual: 'found at character 6',
      passed: true,
    });
  });

  it('fail with expected vs actual, for present and absent', async () => {
    const missing = await check(textUrl('Hello World'), { assertions: [keyword('Bye')] });
    expect(missing).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing' });
    expect(second(missing)).toMatchObject({
      expected: 'contains "Bye"',
      actual: 'not found',
      passed: false,
    });
    const present = await check(textUrl('fatal error'), {
      assertions: [keyword('ERROR', 'absent', false)],
    });
    expect(present).toMatchObject({ outcome: 'down', errorCode: 'keyword_present' });
    expect(second(present)).toMatchObject({
      expected: 'does not contain "ERROR" (any case)',
      actual: 'found at character 6',
    });
  });
});

describe('regex assertions', () => {
  const regex = (
    pattern: string,
    flags = '',
    mode: 'present' | 'absent' = 'present',
  ): Assertion => ({
    kind: 'regex',
    pattern,
    flags,
    mode,
    soft: false,
  });

  it('pass with the match as actual', async () => {
    const run = await check(textUrl('build 2024.11.3 ok'), {
      assertions: [regex('\\d+\\.\\d+\\.\\d+')],
    });
    expect(run.outcome).toBe('up');
    expect(second(run)).toMatchObject({
      expected: 'matches /\\d+\\.\\d+\\.\\d+/',
      actual: 'matched "2024.11.3"',
    });
  });

  it('fail as regex_assertion when there is no match, or one that must be absent', async () => {
    const none = await check(textUrl('all good'), { assertions: [regex('^error', 'im')] });
    expect(none).toMatchObject({ outcome: 'down', errorCode: 'regex_assertion' });
    expect(second(none)).toMatchObject({
      expected: 'matches /^error/im',
      actual: 'no match',
      passed: false,
    });
    const found = await check(textUrl('line\nERROR: disk'), {
      assertions: [regex('^error', 'im', 'absent')],
    });
    expect(found).toMatchObject({ outcome: 'down', errorCode: 'regex_assertion' });
    expect(second(found)).toMatchObject({ actual: 'matched "ERROR"' });
  });

  it('interrupts catastrophic backtracking instead of blocking the process', () => {
    expect(boundedExec('^(a+)+$', '', `${'a'.repeat(40)}!`, 50)).toEqual({ kind: 'timeout' });
    expect(boundedExec('a+', '', 'baaa', 50)).toEqual({ kind: 'match', index: 1, text: 'aaa' });
  });

  it('fail a check whose pattern runs past the time bound, saying so', async () => {
    const run = await check(textUrl(`${'a'.repeat(40)}!`), { assertions: [regex('^(a+)+$')] });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'regex_assertion' });
    expect(run.errorMessage).toContain('did not finish within 100 ms');
    expect(second(run)).toMatchObject({ actual: 'gave up after 100 ms', passed: false });
  });
});

describe('JSON assertions', () => {
  it.each([
    ['$.status', 'equals', '"ok"', '"ok"'],
    ['$.status', 'equals', 'ok', '"ok"'],
    ['$.version', 'equals', '3', '3'],
    ['$.data.ok', 'equals', 'true', 'true'],
    ["$.data['key with space']", 'equals', 'yes', '"yes"'],
    ['$.items[1].name', 'equals', 'two', '"two"'],
    ['$.data.tags', 'contains', 'prod', '["eu","prod"]'],
    ['$.items[*].id', 'contains', '2', '[1,2]'],
    ['$.status', 'contains', 'o', '"ok"'],
    ['$.data', 'exists', '', '{"ok":true,"tags":["eu","prod"],"key with space":"yes"}'],
    ['$.nope', 'not_exists', '', 'missing'],
  ] as const)('pass %s %s %s', async (path, op, value, actual) => {
    const run = await check(jsonUrl(), { assertions: [json(path, op, value)] });
    expect(run.outcome, run.errorMessage ?? '').toBe('up');
    expect(second(run)).toMatchObject({ kind: 'json', target: path, actual, passed: true });
  });

  it.each([
    ['$.status', 'equals', '"down"', 'equals "down"', '"ok"'],
    ['$.version', 'equals', '"3"', 'equals "3"', '3'],
    ['$.items[*].id', 'contains', '7', 'contains 7', '[1,2]'],
    ['$.missing.deeper', 'exists', '', 'exists', 'missing'],
    ['$.data.ok', 'not_exists', '', 'does not exist', 'true'],
  ] as const)(
    'fail %s %s %s with expected vs actual',
    async (path, op, value, expected, actual) => {
      const run = await check(jsonUrl(), { assertions: [json(path, op, value)] });
      expect(run).toMatchObject({ outcome: 'down', errorCode: 'json_assertion' });
      expect(run.errorMessage).toBe(`JSON ${path}: expected ${expected}, got ${actual}`);
      expect(second(run)).toMatchObject({ expected, actual, passed: false });
    },
  );

  it('fail on a body that is not JSON, saying so', async () => {
    const run = await check(textUrl('<html>'), { assertions: [json('$.status', 'exists')] });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'json_assertion' });
    expect(run.errorMessage).toBe(
      'The response body is not JSON, so $.status could not be checked',
    );
    expect(second(run)).toMatchObject({ actual: 'body is not JSON', passed: false });
  });
});

describe('header assertions', () => {
  const header = (
    name: string,
    op: Extract<Assertion, { kind: 'header' }>['op'],
    value = '',
  ): Assertion => ({ kind: 'header', name, op, value, soft: false });
  const url = () => `${server.url}/headers?x-version=2.1.0&cache-control=no-store`;

  it.each([
    ['X-Version', 'equals', '2.1.0'],
    ['cache-control', 'contains', 'NO-STORE'],
    ['X-Version', 'matches', '^2\\.\\d+'],
    ['x-version', 'exists', ''],
  ] as const)('pass %s %s %s', async (name, op, value) => {
    const run = await check(url(), { assertions: [header(name, op, value)] });
    expect(run.outcome, run.errorMessage ?? '').toBe('up');
    expect(second(run)).toMatchObject({ target: `header ${name}`, passed: true });
  });

  it('fail as header_assertion with expected vs actual', async () => {
    const wrong = await check(url(), { assertions: [header('X-Version', 'equals', '3.0.0')] });
    expect(wrong).toMatchObject({ outcome: 'down', errorCode: 'header_assertion' });
    expect(wrong.errorMessage).toBe('Header X-Version: expected equals "3.0.0", got "2.1.0"');
    const absent = await check(url(), { assertions: [header('X-Missing', 'exists')] });
    expect(second(absent)).toMatchObject({ expected: 'present', actual: 'absent', passed: false });
    const unmatched = await check(url(), { assertions: [header('X-Version', 'matches', '^3')] });
    expect(second(unmatched)).toMatchObject({
      expected: 'matches /^3/',
      actual: '"2.1.0"',
      passed: false,
    });
  });
});

describe('latency and size assertions', () => {
  it('degrade on a slow answer when soft (the default), with the time as actual', async () => {
    const latency: Assertion = { kind: 'latency', maxMs: 20, soft: true };
    const run = await check(`${server.url}/slow?ms=150`, { assertions: [latency] });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
    expect(run.errorMessage).toMatch(/^Responded in \d+ ms, above the 20 ms limit$/);
    expect(second(run)).toMatchObject({ expected: 'at most 20 ms', passed: false, soft: true });
    const hard = await check(`${server.url}/slow?ms=150`, {
      assertions: [{ ...latency, soft: false }],
    });
    expect(hard).toMatchObject({ outcome: 'down', errorCode: 'degraded_latency' });
  });

  it('check the body size as received', async () => {
    const body = 'x'.repeat(2000);
    const small: Assertion = { kind: 'size', op: 'at_most', bytes: 1000, soft: false };
    const big = await check(textUrl(body), { assertions: [small] });
    expect(big).toMatchObject({ outcome: 'down', errorCode: 'response_too_large' });
    expect(second(big)).toMatchObject({ expected: 'at most 1,000 bytes', actual: '2,000 bytes' });
    const least: Assertion = { kind: 'size', op: 'at_least', bytes: 5000, soft: false };
    const tooSmall = await check(textUrl(body), { assertions: [least] });
    expect(tooSmall).toMatchObject({ outcome: 'down', errorCode: 'response_too_small' });
    expect((await check(textUrl(body), { assertions: [{ ...small, bytes: 2000 }] })).outcome).toBe(
      'up',
    );
  });
});

describe('soft and hard failures together', () => {
  it('degrade on a soft failure, go down on a hard one whatever the order', async () => {
    const soft: Assertion = { ...json('$.version', 'equals', '4'), soft: true };
    const degraded = await check(jsonUrl(), { assertions: [soft] });
    expect(degraded).toMatchObject({ outcome: 'degraded', errorCode: 'json_assertion' });
    const down = await check(jsonUrl(), { assertions: [soft, keyword('absent-word')] });
    expect(down).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing' });
    expect(down.details?.assertions.map((a) => a.passed)).toEqual([true, false, false]);
  });
});

describe('request options', () => {
  type Echo = { headers: Record<string, string>; body: string };
  const lastEcho = (run: CheckRun): Echo => {
    expect(run.outcome, run.errorMessage ?? '').toBe('up');
    const seen = server.requests.at(-1);
    return { headers: seen?.headers as Record<string, string>, body: '' };
  };

  it('sends basic and bearer credentials', async () => {
    const basic = await check(`${server.url}/echo`, {
      auth: { kind: 'basic', username: 'ann', password: 'pä:ss' },
    });
    expect(lastEcho(basic).headers.authorization).toBe(
      `Basic ${Buffer.from('ann:pä:ss').toString('base64')}`,
    );
    await check(`${server.url}/echo`, { auth: { kind: 'bearer', token: 'tok-123' } });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer tok-123');
  });

  it("lets the user's own Authorization header win", async () => {
    await check(`${server.url}/echo`, {
      auth: { kind: 'bearer', token: 'tok-123' },
      headers: [{ name: 'authorization', value: 'Custom x' }],
    });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Custom x');
  });

  it.each([
    ['json', '{"a":1}', 'application/json'],
    ['form', 'a=1&b=two', 'application/x-www-form-urlencoded'],
    ['raw', 'plain words', undefined],
  ] as const)('sends a %s body with its content type', async (bodyType, body, type) => {
    const run = await check(`${server.url}/echo`, {
      method: 'POST',
      bodyType,
      body,
      assertions: [json('$.body', 'equals', JSON.stringify(body))],
    });
    expect(run.outcome, run.errorMessage ?? '').toBe('up');
    expect(server.requests.at(-1)?.headers['content-type']).toBe(type);
  });

  it('keeps a Content-Type the user set, and sends no body for "none"', async () => {
    await check(`${server.url}/echo`, {
      method: 'POST',
      bodyType: 'json',
      body: '{}',
      headers: [{ name: 'Content-Type', value: 'application/vnd.api+json' }],
    });
    expect(server.requests.at(-1)?.headers['content-type']).toBe('application/vnd.api+json');
    const none = await check(`${server.url}/echo`, {
      method: 'POST',
      bodyType: 'none',
      body: 'ignored',
      assertions: [json('$.body', 'equals', '""')],
    });
    expect(none.outcome, none.errorMessage ?? '').toBe('up');
  });
});

describe('IP family', () => {
  const at = (family: 'auto' | 'ipv4' | 'ipv6', host = 'dual.test') =>
    check(`http://${host}:${dual.port}/ok`, { ipFamily: family, lookup: dns.lookup });

  it('connects over IPv4 or IPv6 as asked, resolving through the loopback DNS server', async () => {
    expect((await at('ipv4')).outcome).toBe('up');
    expect(dual.requests.at(-1)?.remoteAddress).toBe('127.0.0.1');
    expect((await at('ipv6')).outcome).toBe('up');
    expect(dual.requests.at(-1)?.remoteAddress).toBe('::1');
    expect((await at('auto')).outcome).toBe('up');
  });

  it('is dns_not_found when the name has no address of that family', async () => {
    const run = await at('ipv4', 'v6only.test');
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'dns_not_found' });
    expect((await at('ipv6', 'v6only.test')).outcome).toBe('up');
  });
});

describe('the certificate', () => {
  it('is captured on every HTTPS check, trusted, with names and dates', async () => {
    const run = await check(`https://localhost:${tlsServer.port}/ok`, {
      ca: tlsServer.ca === undefined ? [] : [tlsServer.ca],
    });
    expect(run.outcome).toBe('up');
    expect(run.details?.certificate).toMatchObject({
      subject: 'localhost',
      issuer: 'Pagewatch Test CA',
      sans: ['DNS:localhost', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1'],
      notAfter: new Date(tlsServer.certValidTo ?? 0).toISOString(),
      trusted: true,
      verifyError: null,
    });
    expect(run.details?.certificate?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('keeps the verify error of a certificate ignored with ignoreTls, and on failure', async () => {
    const ignored = await check(`${selfSigned.url}/ok`, { ignoreTls: true });
    expect(ignored.outcome).toBe('up');
    expect(ignored.details?.certificate).toMatchObject({
      trusted: false,
      verifyError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    const failed = await check(`${selfSigned.url}/ok`);
    expect(failed).toMatchObject({ outcome: 'down', errorCode: 'tls_cert_untrusted' });
    expect(failed.details).toMatchObject({ certificate: { trusted: false }, assertions: [] });
  });

  it('is null on plain HTTP', async () => {
    expect((await check(`${server.url}/ok`)).details).toEqual({
      certificate: null,
      assertions: [expect.objectContaining({ kind: 'status' })],
    });
  });
});
