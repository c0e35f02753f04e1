import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runPingCheck, type PingCheckSpec } from '../../src/engine/checks/ping/index.js';
import { parsePingOutput, pingStats } from '../../src/engine/checks/ping/output.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { UNRESOLVABLE_HOST } from '../fixtures/target-server.js';

/** The system ping, as the check finds it on the PATH; the machine must have iputils-ping. */
function findPing(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v ping'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'No ping program on this machine: install iputils-ping (.ci/run does) to test the ping check',
    );
  }
}
const systemPing = findPing();

function check(overrides: Partial<PingCheckSpec> = {}): Promise<CheckRun> {
  return runPingCheck(
    {
      host: '127.0.0.1',
      ipFamily: 'auto',
      count: 3,
      packetIntervalMs: 200,
      lossDegradedPercent: 0,
      timeoutMs: 3000,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

const assertion = (run: CheckRun, target: string) =>
  run.details?.assertions.find((a) => a.target === target);

describe('echo to loopback', () => {
  it('127.0.0.1 answers every packet: up, with loss and round trips shown', async () => {
    const run = await check();
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.latencyMs).toBeGreaterThan(0);
    expect(run.latencyMs).toBeLessThan(50);
    expect(assertion(run, 'packet loss')).toMatchObject({
      actual: '0 % (0 of 3 lost)',
      passed: true,
    });
    expect(assertion(run, 'round trip')?.actual).toMatch(
      /^min\/avg\/max [\d.]+\/[\d.]+\/[\d.]+ ms, jitter [\d.]+ ms$/,
    );
  });

  it('::1 answers over IPv6', async () => {
    const run = await check({ host: '::1', count: 2 });
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(assertion(run, 'packet loss')?.actual).toBe('0 % (0 of 2 lost)');
  });

  it('a name is resolved first, and the lookup is the dns phase', async () => {
    const run = await check({ host: 'localhost', ipFamily: 'ipv4', count: 1 });
    expect(run.outcome).toBe('up');
    expect(run.phases.dns).not.toBeNull();
  });

  it('an average round trip above the threshold degrades', async () => {
    const run = await check({ count: 2, degradedThresholdMs: 0 });
    expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'degraded_latency' });
    expect(run.errorMessage).toMatch(/^Average round trip [\d.]+ ms, above the 0 ms threshold$/);
  });

  it('1,000 loopback hosts are 127.0.0.x addresses that all answer', async () => {
    const run = await check({ host: '127.0.0.77', count: 1 });
    expect(run.outcome).toBe('up');
  });
});

describe('what fails', () => {
  it('a name that does not resolve is dns_not_found', async () => {
    const run = await check({ host: UNRESOLVABLE_HOST });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'dns_not_found', latencyMs: null });
  });

  it('no ping program says to install iputils-ping, and nothing throws', async () => {
    const run = await check({ program: '/nonexistent/ping' });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'ping_unavailable' });
    expect(run.errorMessage).toMatch(/install iputils-ping/);
  });

  describe('a machine that forbids ICMP to this user', () => {
    // A copy of the program loses its file capability; run as nobody, with ping_group_range
    // closed to nobody's group, the kernel refuses both kinds of ICMP socket.
    const dir = mkdtempSync(path.join(tmpdir(), 'pagewatch-ping-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ping_group_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const nobody = 65534;
    const groupAllowed = low! <= nobody && nobody <= high!;

    it('says exactly what to change (sysctl, setcap or CAP_NET_RAW)', async () => {
      const copy = path.join(dir, 'ping');
      copyFileSync(systemPing, copy);
      chmodSync(dir, 0o755);
      chmodSync(copy, 0o755);
      const asRoot = process.getuid?.() === 0;
      const run = await check({
        program: copy,
        count: 1,
        ...(asRoot ? { runAs: { uid: nobody, gid: nobody } } : {}),
      });
      if (asRoot && groupAllowed) {
        // This machine opens ICMP to every group: nothing to refuse.
        expect(run.outcome).toBe('up');
        return;
      }
      expect(run).toMatchObject({ outcome: 'down', errorCode: 'ping_unavailable' });
      expect(run.errorMessage).toMatch(/net\.ipv4\.ping_group_range/);
      expect(run.errorMessage).toMatch(/setcap cap_net_raw\+ep/);
      expect(run.errorMessage).toMatch(/CAP_NET_RAW/);
    });
  });

  it('a check stopped from outside ends as a timeout, and the program is gone', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = runPingCheck(
      {
        host: '127.0.0.1',
        ipFamily: 'auto',
        count: 10,
        packetIntervalMs: 1000,
        lossDegradedPercent: 0,
        timeoutMs: 20_000,
        degradedThresholdMs: null,
      },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 300);
    const run = await pending;
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'timeout' });
    // Ten packets a second apart would take 9 s; loose, for a loaded machine.
    expect(Date.now() - started).toBeLessThan(6000);
  });
});

describe('reading what ping printed', () => {
  // Recorded from iputils 20221126 against an address that answered two of four.
  const lossy = [
    'PING 10.0.0.9 (10.0.0.9) 56(84) bytes of data.',
    '64 bytes from 10.0.0.9: icmp_seq=1 ttl=64 time=1.20 ms',
    '64 bytes from 10.0.0.9: icmp_seq=3 ttl=64 time=3.40 ms',
    '',
    '--- 10.0.0.9 ping statistics ---',
    '4 packets transmitted, 2 received, 50% packet loss, time 3004ms',
    'rtt min/avg/max/mdev = 1.200/2.300/3.400/1.100 ms',
  ].join('\n');

  it('counts loss and computes min, avg, max and jitter from the replies', () => {
    const out = parsePingOutput(lossy);
    expect(out).toEqual({ transmitted: 4, received: 2, rtts: [1.2, 3.4] });
    expect(pingStats(out!)).toEqual({
      transmitted: 4,
      received: 2,
      lossPercent: 50,
      minMs: 1.2,
      avgMs: 2.3,
      maxMs: 3.4,
      jitterMs: 2.2,
    });
  });

  it('every packet lost has no round trips', () => {
    const out = parsePingOutput(
      '--- x ping statistics ---\n3 packets transmitted, 0 received, 100% packet loss, time 2042ms\n',
    );
    expect(pingStats(out!)).toMatchObject({ lossPercent: 100, avgMs: null, jitterMs: null });
  });

  it('no summary is no result', () => {
    expect(parsePingOutput('ping: socket: Operation not permitted\n')).toBeNull();
  });
});
