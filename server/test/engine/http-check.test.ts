import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHttpCheck } from '../../src/engine/checks/http/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import {
  refusedPort,
  startTargetServer,
  UNRESOLVABLE_HOST,
  type TargetServer,
} from '../fixtures/target-server.js';
import { check, httpSpec, keyword } from './http-spec.js';
import { startDnsServer } from '../fixtures/dns-server.js';

let server: TargetServer;

beforeAll(async () => {
  server = await startTargetServer();
});

afterAll(async () => {
  await server.close();
});

function lastRequest(): TargetServer['requests'][number] {
  const req = server.requests.at(-1);
  if (req === undefined) throw new Error('the target saw no request');
  return req;
}

function roundedTo3(value: number | null): boolean {
  return value !== null && Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}

function expectDown(run: CheckRun, code: CheckRun['errorCode']): void {
  expect(run.outcome).toBe('down');
  expect(run.errorCode).toBe(code);
  expect(run.errorMessage).toEqual(expect.any(String));
  expect(run.errorMessage).not.toMatch(/\n\s+at /);
}

const localhostLookup = (delayMs: number) => (): Promise<LookupAddress[]> =>
  new Promise((resolve) =>
    setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), delayMs),
  );

describe('a healthy target', () => {
  it('is up with timed phases; no DNS phase for an IP literal, no TLS on http', async () => {
    const run = await check(`${server.url}/ok`);
    expect(run).toMatchObject({
      outcome: 'up',
      httpStatus: 200,
      errorCode: null,
      errorMessage: null,
      responseSize: 2,
      certExpiresAt: null,
    });
    const { dns, connect, tls, ttfb, download } = run.phases;
    expect(dns).toBeNull();
    expect(tls).toBeNull();
    for (const value of [connect, ttfb, download, run.latencyMs]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(roundedTo3(value)).toBe(true);
    }
    expect(run.latencyMs).toBeGreaterThanOrEqual((connect ?? 0) + (ttfb ?? 0) + (download ?? 0));
  });

  it('times the DNS lookup of a hostname', async () => {
    const run = await check(`http://localhost:${server.port}/ok`);
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).toBeGreaterThanOrEqual(0);
  });

  it('uses a replacement resolver and times it', async () => {
    const run = await check(`http://target.test:${server.port}/ok`, {
      lookup: localhostLookup(60),
    });
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).toBeGreaterThanOrEqual(45);
    expect(lastRequest().headers.host).toBe(`target.test:${server.port}`);
  });

  it('separates waiting for the first byte from downloading the body', async () => {
    const slowHead = await check(`${server.url}/slow?ms=200`);
    expect(slowHead.phases.ttfb).toBeGreaterThanOrEqual(150);
    // The head comes at once and the body a second later: the wait is the download's, with
    // room for a loaded machine.
    const slowBody = await check(`${server.url}/slow-body?ms=1000`);
    expect(slowBody.outcome).toBe('up');
    expect(slowBody.phases.ttfb).toBeLessThan(700);
    expect(slowBody.phases.download).toBeGreaterThanOrEqual(150);
    expect(slowBody.responseSize).toBe('start\nend\n'.length);
  });
});

describe('status codes', () => {
  it('accepts codes and ranges from the list', async () => {
    expect(
      (await check(`${server.url}/status/404`, { acceptedStatusCodes: ['404'] })).outcome,
    ).toBe('up');
    const ranged = await check(`${server.url}/status/503`, {
      acceptedStatusCodes: ['200-299', '500-599'],
    });
    expect(ranged).toMatchObject({ outcome: 'up', httpStatus: 503 });
  });

  it('is down on any other code, naming it and what was expected', async () => {
    const run = await check(`${server.url}/status/503`);
    expectDown(run, 'http_status');
    expect(run.httpStatus).toBe(503);
    expect(run.errorMessage).toBe('HTTP 503 Service Unavailable (expected 200-299)');
    expect(run.latencyMs).toBeGreaterThan(0);
    const odd = await check(`${server.url}/status/299`, {
      acceptedStatusCodes: ['200', '300-301'],
    });
    expect(odd.errorMessage).toBe('HTTP 299 (expected 200, 300-301)');
  });

  it('turns slow answers into degraded above the threshold only', async () => {
    const slow = await check(`${server.url}/slow?ms=120`, { degradedThresholdMs: 50 });
    expect(slow).toMatchObject({
      outcome: 'degraded',
      errorCode: 'degraded_latency',
      httpStatus: 200,
    });
    expect(slow.errorMessage).toMatch(/^Responded in \d+ ms, above the 50 ms threshold$/);
    const fast = await check(`${server.url}/ok`, { degradedThresholdMs: 5000 });
    expect(fast).toMatchObject({ outcome: 'up', errorCode: null });
  });
});

describe('the request', () => {
  it('sends method, body and headers, with the default User-Agent and encodings', async () => {
    const body = JSON.stringify({ hello: 'wörld' });
    const run = await check(`${server.url}/echo?x=1`, {
      method: 'POST',
      bodyType: 'raw',
      body,
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'X-Trace', value: 'a' },
        { name: 'x-trace', value: 'b' },
      ],
      assertions: [keyword(`"body":${JSON.stringify(body)}`)],
    });
    expect(run.outcome).toBe('up');
    const seen = lastRequest();
    expect(seen).toMatchObject({ method: 'POST', url: '/echo?x=1' });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-trace': 'a, b',
      'user-agent': 'Pagewatch/0.1',
      'accept-encoding': 'gzip, br, deflate',
      host: `127.0.0.1:${server.port}`,
    });
  });

  it('lets user headers replace the defaults, whatever their case', async () => {
    await check(`${server.url}/ok`, {
      headers: [
        { name: 'user-agent', value: 'Custom/2' },
        { name: 'ACCEPT', value: 'text/html' },
      ],
    });
    const seen = lastRequest();
    expect(seen.headers['user-agent']).toBe('Custom/2');
    expect(seen.headers.accept).toBe('text/html');
    expect(seen.method).toBe('GET');
    expect(seen.headers['content-length']).toBeUndefined();
  });

  it('sends HEAD without reading a body', async () => {
    const run = await check(`${server.url}/ok`, { method: 'HEAD' });
    expect(run).toMatchObject({ outcome: 'up', httpStatus: 200, responseSize: 0 });
    expect(lastRequest().method).toBe('HEAD');
  });
});

describe('transport failures', () => {
  it('maps a name the DNS server does not know (NXDOMAIN) to dns_not_found', async () => {
    // A real DNS server on loopback, so no query leaves the machine.
    const dnsServer = await startDnsServer({ 'shop.test': ['127.0.0.1'] });
    try {
      const run = await check(`http://${UNRESOLVABLE_HOST}/ok`, { lookup: dnsServer.lookup });
      expectDown(run, 'dns_not_found');
      expect(run.errorMessage).toContain(UNRESOLVABLE_HOST);
      expect(run.latencyMs).toBeNull();
      const known = await check(`http://shop.test:${server.port}/ok`, { lookup: dnsServer.lookup });
      expect(known).toMatchObject({ outcome: 'up', httpStatus: 200 });
      expect(known.phases.dns).toBeGreaterThan(0);
      // Automatic IP family asks for AAAA and A records.
      expect(dnsServer.queries).toEqual([`${UNRESOLVABLE_HOST} 28`, 'shop.test 28', 'shop.test 1']);
    } finally {
      await dnsServer.close();
    }
  });

  it('maps a closed port to connect_refused', async () => {
    const port = await refusedPort();
    const run = await check(`http://127.0.0.1:${port}/ok`);
    expectDown(run, 'connect_refused');
    expect(run.errorMessage).toBe(`Connection to 127.0.0.1:${port} was refused`);
  });

  it('maps a reset before the answer to connection_reset', async () => {
    const run = await check(`${server.url}/reset`);
    expectDown(run, 'connection_reset');
    expect(run.phases.connect).not.toBeNull();
  });

  it('maps a body cut short to connection_reset, keeping the status and bytes read', async () => {
    const run = await check(`${server.url}/truncated`);
    expectDown(run, 'connection_reset');
    expect(run.httpStatus).toBe(200);
    expect(run.responseSize).toBe('only part of it'.length);
  });

  it('maps an invalid HTTP answer to protocol_error', async () => {
    const run = await check(`${server.url}/malformed`);
    expectDown(run, 'protocol_error');
    expect(run.errorMessage).toContain('HPE_');
  });

  it('reports a URL it cannot check as internal_error', async () => {
    const run = await check('ftp://127.0.0.1/file');
    expectDown(run, 'internal_error');
  });
});

describe('the deadline', () => {
  it('is a timeout while waiting for the answer', async () => {
    const run = await check(`${server.url}/hang`, { timeoutMs: 150 });
    expectDown(run, 'timeout');
    expect(run.errorMessage).toBe('No response from 127.0.0.1 within 150 ms');
    expect(run.phases.connect).not.toBeNull();
    expect(run.phases.ttfb).toBeNull();
    await server.waitForNoConnections();
  });

  it('is a timeout while the body trickles in', async () => {
    const run = await check(`${server.url}/slow-body?ms=5000`, { timeoutMs: 150 });
    expectDown(run, 'timeout');
    expect(run.errorMessage).toMatch(/body did not finish downloading within 150 ms/);
    expect(run.httpStatus).toBe(200);
    expect(run.phases.ttfb).not.toBeNull();
    await server.waitForNoConnections();
  });

  it('is dns_timeout while the lookup is pending', async () => {
    const started = performance.now();
    const run = await check(`http://stuck.test:${server.port}/ok`, {
      timeoutMs: 100,
      lookup: () => new Promise(() => undefined),
    });
    expectDown(run, 'dns_timeout');
    expect(run.errorMessage).toBe('DNS lookup for stuck.test did not finish within 100 ms');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('covers the whole redirect chain', async () => {
    const started = performance.now();
    const run = await check(`${server.url}/redirect/2?to=/hang`, { timeoutMs: 200 });
    expectDown(run, 'timeout');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(server.requests.at(-1)?.url).toBe('/hang');
  });
});

describe('cancellation and cleanup', () => {
  it('stops at once when the caller aborts, as a timeout', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = runHttpCheck(httpSpec(`${server.url}/hang`, { timeoutMs: 10_000 }), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const run = await pending;
    expectDown(run, 'timeout');
    expect(run.errorMessage).toMatch(/stopped during the wait for a response/);
    expect(performance.now() - started).toBeLessThan(5000);
    await server.waitForNoConnections();
  });

  it('does not start when already aborted', async () => {
    const before = server.requests.length;
    const run = await runHttpCheck(httpSpec(`${server.url}/ok`), { signal: AbortSignal.abort() });
    expectDown(run, 'timeout');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests.length).toBe(before);
  });

  it('leaves no socket or timer behind, whatever the outcome', async () => {
    const count = (kind: string): number =>
      process.getActiveResourcesInfo().filter((r) => r === kind).length;
    await server.waitForNoConnections();
    const sockets = count('TCPSocketWrap');
    const timers = count('Timeout');
    const runs = await Promise.all([
      check(`${server.url}/ok`),
      check(`${server.url}/hang`, { timeoutMs: 100 }),
      check(`${server.url}/slow-body?ms=5000`, { timeoutMs: 100 }),
      check(`${server.url}/huge?mb=4`),
      check(`${server.url}/redirect-loop`, { maxRedirects: 3 }),
      check(`${server.url}/status/500`),
      check(`${server.url}/reset`),
      // Judged on the status alone: the unread 4 MiB body must not keep the connection open.
      check(`${server.url}/huge?mb=4`, { acceptedStatusCodes: ['500'] }),
    ]);
    expect(runs.map((r) => r.errorCode)).toEqual([
      null,
      'timeout',
      'timeout',
      null,
      'too_many_redirects',
      'http_status',
      'connection_reset',
      'http_status',
    ]);
    await server.waitForNoConnections();
    expect(server.openConnections()).toBe(0);
    // A destroyed handle leaves the list when libuv's close callback has run, a tick later.
    await expect.poll(() => count('TCPSocketWrap')).toBe(sockets);
    expect(count('Timeout')).toBeLessThanOrEqual(timers);
  });
});
