import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { runTcpCheck, type TcpCheckSpec } from '../../src/engine/checks/tcp/index.js';
import { decodeEscapes, showBytes } from '../../src/engine/checks/tcp/escapes.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';

const servers: TcpServer[] = [];

async function peer(...args: Parameters<typeof startTcpServer>): Promise<TcpServer> {
  const server = await startTcpServer(...args);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function check(port: number, overrides: Partial<TcpCheckSpec> = {}): Promise<CheckRun> {
  return runTcpCheck(
    {
      host: '127.0.0.1',
      port,
      send: '',
      expect: '',
      timeoutMs: 2000,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

function expectDown(run: CheckRun, code: CheckRun['errorCode']): void {
  expect(run.outcome).toBe('down');
  expect(run.errorCode).toBe(code);
  expect(run.errorMessage).toEqual(expect.any(String));
  expect(run.latencyMs).toBeNull();
}

/** Waits until the peer sees every connection closed (the check destroyed its socket). */
async function closedOn(server: TcpServer): Promise<void> {
  for (let i = 0; i < 100 && server.openConnections() > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(server.openConnections()).toBe(0);
}

describe('connect only', () => {
  it('is up with the connect time; no DNS for an IP literal, no TLS, no first byte', async () => {
    const server = await peer('silent');
    const run = await check(server.port);
    expect(run).toMatchObject({
      outcome: 'up',
      errorCode: null,
      httpStatus: null,
      responseSize: null,
      certExpiresAt: null,
    });
    expect(run.phases).toMatchObject({ dns: null, tls: null, ttfb: null, download: null });
    expect(run.phases.connect).toBeGreaterThan(0);
    expect(run.latencyMs).toBeGreaterThanOrEqual(run.phases.connect ?? 0);
    expect(server.accepted()).toBe(1);
    await closedOn(server);
  });

  it('times the lookup of a host name through the injected resolver', async () => {
    const server = await peer('accept-close');
    const lookup = (): Promise<LookupAddress[]> =>
      new Promise((resolve) =>
        setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 40),
      );
    const run = await check(server.port, { host: 'db.test', lookup });
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).toBeGreaterThanOrEqual(35);
  });

  it('is dns_not_found for a name that does not resolve', async () => {
    const lookup = (): Promise<LookupAddress[]> =>
      Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    expectDown(await check(9, { host: 'missing.test', lookup }), 'dns_not_found');
  });

  it('is dns_timeout while the lookup hangs', async () => {
    const lookup = (): Promise<LookupAddress[]> => new Promise(() => undefined);
    expectDown(await check(9, { host: 'slow.test', lookup, timeoutMs: 100 }), 'dns_timeout');
  });

  it('is connect_refused on a closed port', async () => {
    const run = await check(await refusedPort());
    expectDown(run, 'connect_refused');
    expect(run.errorMessage).toMatch(/refused/);
  });

  it('is degraded above the threshold', async () => {
    const server = await peer('silent');
    const slow = await check(server.port, {
      degradedThresholdMs: 1,
      lookup: () =>
        new Promise((resolve) =>
          setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 20),
        ),
      host: 'slow.test',
    });
    expect(slow).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
  });
});

describe('banners', () => {
  it('is up when the expected text arrives, with the time to the first byte', async () => {
    const server = await peer('banner', { banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
    const run = await check(server.port, { expect: 'SSH-2.0' });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, responseSize: 21 });
    expect(run.phases.ttfb).toEqual(expect.any(Number));
    await closedOn(server);
  });

  it('is keyword_missing quoting expected and received when another banner arrives', async () => {
    const server = await peer('banner', { banner: '220 mail.example.com ESMTP\r\n' });
    const run = await check(server.port, { expect: '+OK', timeoutMs: 300 });
    expectDown(run, 'keyword_missing');
    expect(run.errorMessage).toContain('“+OK”');
    expect(run.errorMessage).toContain('220 mail.example.com ESMTP\\r\\n');
    await closedOn(server);
  });

  it('truncates a long banner in the message and reads at most the limit', async () => {
    const server = await peer('banner', { banner: 'a'.repeat(100_000) });
    const run = await check(server.port, { expect: 'zzz', maxReadBytes: 64 * 1024 });
    expectDown(run, 'keyword_missing');
    expect(run.errorMessage).toMatch(/first 64 KiB/);
    expect(run.errorMessage?.length).toBeLessThan(400);
  });

  it('is timeout when the peer stays silent', async () => {
    const server = await peer('silent');
    const run = await check(server.port, { expect: 'READY', timeoutMs: 150 });
    expectDown(run, 'timeout');
    expect(run.phases.connect).toEqual(expect.any(Number));
    await closedOn(server);
  });

  it('is connection_reset when the peer closes without a word', async () => {
    const server = await peer('accept-close');
    expectDown(await check(server.port, { expect: 'READY' }), 'connection_reset');
  });
});

describe('send and expect', () => {
  it('writes the escaped payload and finds the echo', async () => {
    const server = await peer('echo');
    const run = await check(server.port, { send: 'PING\\r\\n', expect: 'PING\\r\\n' });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(server.received[0]?.toString('latin1')).toBe('PING\r\n');
    expect(run.phases.ttfb).toEqual(expect.any(Number));
    await closedOn(server);
  });

  it('is connection_reset when the peer resets after the request', async () => {
    const server = await peer('reset');
    const run = await check(server.port, { send: 'HELLO\\n', expect: 'OK' });
    expectDown(run, 'connection_reset');
  });

  it('sends without waiting for a reply when nothing is expected', async () => {
    const server = await peer('silent');
    const run = await check(server.port, { send: 'QUIT\\r\\n' });
    expect(run.outcome).toBe('up');
    await closedOn(server);
    expect(server.received[0]?.toString('latin1')).toBe('QUIT\r\n');
  });
});

it('stops at once when the caller aborts, and closes the socket', async () => {
  const server = await peer('silent');
  const controller = new AbortController();
  const pending = runTcpCheck(
    {
      host: '127.0.0.1',
      port: server.port,
      send: '',
      expect: 'never',
      timeoutMs: 10_000,
      degradedThresholdMs: null,
    },
    { signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 50);
  const run = await pending;
  expectDown(run, 'timeout');
  await closedOn(server);
});

describe('escapes', () => {
  it('decodes \\r \\n \\t \\0 \\\\ and \\xHH, keeps other backslashes, UTF-8 otherwise', () => {
    expect(decodeEscapes('a\\r\\n\\t\\0\\\\b').toString('latin1')).toBe('a\r\n\t\0\\b');
    expect([...decodeEscapes('\\x00\\xff\\xZZ')]).toEqual([0, 255, ...Buffer.from('\\xZZ')]);
    expect(decodeEscapes('é').length).toBe(2);
    expect(decodeEscapes('C:\\dir\\')).toEqual(Buffer.from('C:\\dir\\'));
  });

  it('shows bytes readably and truncates', () => {
    expect(showBytes('ok\r\n\x01')).toBe('ok\\r\\n\\x01');
    expect(showBytes('a'.repeat(200), 10)).toBe(`${'a'.repeat(10)}…`);
  });
});
