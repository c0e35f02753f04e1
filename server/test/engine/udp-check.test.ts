import { afterEach, describe, expect, it } from 'vitest';
import { runUdpCheck, type UdpCheckSpec } from '../../src/engine/checks/udp/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { startUdpPeer } from '../fixtures/net-peers.js';
import { UNRESOLVABLE_HOST } from '../fixtures/target-server.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function peer(...args: Parameters<typeof startUdpPeer>) {
  const p = await startUdpPeer(...args);
  closers.push(() => p.close());
  return p;
}

/** A port nothing listens on: the kernel answers port unreachable. */
async function closedPort(): Promise<number> {
  const p = await startUdpPeer();
  await p.close();
  return p.port;
}

function check(port: number, overrides: Partial<UdpCheckSpec> = {}): Promise<CheckRun> {
  return runUdpCheck(
    {
      host: '127.0.0.1',
      port,
      format: 'text',
      send: 'ping\n',
      expect: '',
      timeoutMs: 1000,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('a reply', () => {
  it('any reply is up when nothing is expected; the payload arrived as sent', async () => {
    const echo = await peer();
    const run = await check(echo.port, { send: 'hello\\r\\n' });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, responseSize: 7 });
    expect(echo.received[0]?.toString()).toBe('hello\r\n');
    expect(run.phases.ttfb).not.toBeNull();
    expect(run.latencyMs).toBeGreaterThan(0);
  });

  it('a reply containing the keyword is up', async () => {
    const p = await peer('127.0.0.1', () => Buffer.from('+PONG server=alpha\r\n'));
    const run = await check(p.port, { expect: 'PONG' });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions[0]).toMatchObject({ expected: 'PONG', passed: true });
  });

  it('hex: bytes are sent and matched as hex pairs', async () => {
    const p = await peer('127.0.0.1', (msg) =>
      msg.equals(Buffer.from([0xde, 0xad])) ? Buffer.from([0x00, 0xbe, 0xef, 0x01]) : null,
    );
    const run = await check(p.port, { format: 'hex', send: 'de ad', expect: 'BEEF' });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions[0]).toMatchObject({ actual: '00 be ef 01', passed: true });
  });

  it('over IPv6 to ::1', async () => {
    const echo = await peer('::1');
    const run = await check(echo.port, { host: '::1', expect: 'ping' });
    expect(run.outcome).toBe('up');
  });

  it('a reply slower than the threshold degrades', async () => {
    const echo = await peer();
    const run = await check(echo.port, { degradedThresholdMs: 0 });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
  });
});

describe('what fails', () => {
  it('the wrong answer is keyword_missing, showing what came', async () => {
    const p = await peer('127.0.0.1', () => Buffer.from('-ERR busy'));
    const run = await check(p.port, { expect: 'PONG', timeoutMs: 400 });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing', latencyMs: null });
    expect(run.errorMessage).toBe('Expected “PONG” in a reply, but got “-ERR busy”');
    expect(run.details?.assertions[0]).toMatchObject({ actual: '-ERR busy', passed: false });
  });

  it('silence is a timeout', async () => {
    const p = await peer('127.0.0.1', () => null);
    const run = await check(p.port, { timeoutMs: 300 });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'timeout' });
    expect(run.errorMessage).toMatch(/^No reply from udp 127\.0\.0\.1:\d+ within 300 ms$/);
    expect(p.received).toHaveLength(1);
  });

  it('a closed port (ICMP port unreachable) is connect_refused', async () => {
    const run = await check(await closedPort());
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'connect_refused' });
    expect(run.errorMessage).toMatch(/nothing listens on udp 127\.0\.0\.1:\d+/i);
  });

  it('a name that does not resolve is dns_not_found', async () => {
    const run = await check(9, { host: UNRESOLVABLE_HOST });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'dns_not_found' });
  });
});
