import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AssertionResult, IpFamily } from '@pagewatch/contract';
import { programRunner, type ProgramExit } from '../../../lib/program-runner.js';
import type { CheckContext, CheckRun } from '../types.js';
import { noPhases } from '../types.js';
import { CheckFailure, roundMs } from '../socket.js';
import { parsePingOutput, pingStats, type PingStats } from './output.js';
import { isPermissionError, pingMissing, pingNotPermitted } from './unavailable.js';

export interface PingCheckSpec {
  host: string;
  ipFamily: IpFamily;
  count: number;
  packetIntervalMs: number;
  /** Losing more than this percentage degrades; losing all is down. */
  lossDegradedPercent: number;
  timeoutMs: number;
  /** Compared with the average round trip. */
  degradedThresholdMs: number | null;
  /** The ping program; default `ping` on the PATH (PAGEWATCH_PING_PATH). */
  program?: string;
  /** Run the program as this user (tests of a machine that forbids ICMP). */
  runAs?: { uid: number; gid: number };
}

/** Output kept from the program: a summary is a few hundred bytes even for 20 packets. */
const MAX_OUTPUT = 64 * 1024;

type Exit = ProgramExit;

/** Resolves the name first (the dns phase), then pings the address; never throws. */
export async function runPingCheck(spec: PingCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  const start = performance.now();
  let dnsMs: number | null = null;
  try {
    const host = spec.host.replace(/^\[(.*)\]$/, '$1');
    let address = host;
    if (net.isIP(host) === 0) {
      const family = spec.ipFamily === 'ipv4' ? 4 : spec.ipFamily === 'ipv6' ? 6 : 0;
      address = await resolve(host, family);
      dnsMs = roundMs(performance.now() - start);
    }
    const exit = await ping(spec, address, ctx.signal);
    return judge(spec, address, exit, dnsMs);
  } catch (err) {
    const failure =
      err instanceof CheckFailure
        ? err
        : new CheckFailure('internal_error', `The ping could not run: ${String(err)}`);
    return failed(failure, dnsMs);
  }
}

async function resolve(host: string, family: 0 | 4 | 6): Promise<string> {
  try {
    return (await lookup(host, { family })).address;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') {
      throw new CheckFailure(
        'dns_not_found',
        `${host} has no ${family === 6 ? 'IPv6 ' : family === 4 ? 'IPv4 ' : ''}address`,
      );
    }
    throw new CheckFailure(
      'dns_server_failure',
      `${host} could not be resolved (${code ?? 'error'})`,
    );
  }
}

/** iputils flags: numeric, count, gap, per-reply wait, overall deadline, family. */
function argsOf(spec: PingCheckSpec, address: string): string[] {
  const seconds = (ms: number) => (ms / 1000).toFixed(3).replace(/\.?0+$/, '');
  const deadline = Math.max(1, Math.floor(spec.timeoutMs / 1000));
  return [
    '-n',
    '-c',
    String(spec.count),
    '-i',
    seconds(spec.packetIntervalMs),
    '-W',
    String(deadline),
    '-w',
    String(deadline),
    net.isIPv6(address) ? '-6' : '-4',
    address,
  ];
}

async function ping(spec: PingCheckSpec, address: string, signal: AbortSignal): Promise<Exit> {
  const program = spec.program ?? process.env.PAGEWATCH_PING_PATH ?? 'ping';
  let exit: Exit;
  try {
    // Started by the helper process, not this one: a fork of a big scheduler blocks its loop.
    exit = await programRunner.run(program, argsOf(spec, address), {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      runAs: spec.runAs,
      maxOutput: MAX_OUTPUT,
      // Past the program's own deadline (-w) by a margin: a hung process is killed, not awaited.
      killAfterMs: spec.timeoutMs + 1000,
      signal,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw pingMissing(program);
    if (code === 'EACCES' || code === 'EPERM') throw pingNotPermitted(code);
    throw err;
  }
  if (signal.aborted) {
    throw new CheckFailure('timeout', 'The check was stopped before the replies came');
  }
  return exit;
}

const ms = (n: number | null): string => (n === null ? '–' : String(n));

function judge(spec: PingCheckSpec, address: string, exit: Exit, dnsMs: number | null): CheckRun {
  const output = parsePingOutput(exit.stdout);
  if (output === null) {
    const said = exit.stderr.trim().split('\n')[0] ?? '';
    if (isPermissionError(exit.stderr)) throw pingNotPermitted(said);
    if (/unknown host|not known|resolution/i.test(said)) {
      throw new CheckFailure('dns_not_found', said.replace(/^ping: /, ''));
    }
    throw new CheckFailure(
      'protocol_error',
      `ping ended without a summary (exit ${exit.code ?? 'signal'})${said ? `: ${said}` : ''}`,
    );
  }
  const stats = pingStats(output);
  const assertions = assertionsOf(spec, stats);
  const phases = { ...noPhases, dns: dnsMs };
  const target = address === spec.host ? address : `${spec.host} (${address})`;
  const base = {
    phases,
    httpStatus: null,
    responseSize: null,
    certExpiresAt: null,
    details: { certificate: null, assertions },
  };
  if (stats.received === 0) {
    return {
      ...base,
      outcome: 'down',
      latencyMs: null,
      errorCode: 'packet_loss',
      errorMessage: `No reply from ${target} to ${stats.transmitted} echo requests${lastWords(exit.stderr)}`,
    };
  }
  const latencyMs = stats.avgMs;
  let problem: { code: CheckRun['errorCode']; message: string } | null = null;
  if (stats.lossPercent > spec.lossDegradedPercent) {
    problem = {
      code: 'packet_loss',
      message: `${stats.lossPercent} % of echo requests to ${target} were lost (${stats.transmitted - stats.received} of ${stats.transmitted}), above the ${spec.lossDegradedPercent} % allowed`,
    };
  } else if (
    spec.degradedThresholdMs !== null &&
    latencyMs !== null &&
    latencyMs > spec.degradedThresholdMs
  ) {
    problem = {
      code: 'degraded_latency',
      message: `Average round trip ${latencyMs} ms, above the ${spec.degradedThresholdMs} ms threshold`,
    };
  }
  return {
    ...base,
    outcome: problem === null ? 'up' : 'degraded',
    latencyMs,
    errorCode: problem?.code ?? null,
    errorMessage: problem?.message ?? null,
  };
}

const lastWords = (stderr: string): string => {
  const said = stderr.trim().split('\n')[0];
  return said ? ` (${said.replace(/^ping: /, '')})` : '';
};

/** Loss and round trips as expected vs actual, for the monitor page. */
function assertionsOf(spec: PingCheckSpec, s: PingStats): AssertionResult[] {
  const lost = s.transmitted - s.received;
  return [
    {
      kind: 'ping',
      target: 'packet loss',
      expected:
        spec.lossDegradedPercent === 0 ? 'no loss' : `at most ${spec.lossDegradedPercent} %`,
      actual: `${s.lossPercent} % (${lost} of ${s.transmitted} lost)`,
      passed: s.lossPercent <= spec.lossDegradedPercent,
      // Some loss degrades; losing everything is judged down on its own.
      soft: s.received > 0,
    },
    {
      kind: 'ping',
      target: 'round trip',
      expected:
        spec.degradedThresholdMs === null
          ? 'a reply'
          : `average at most ${spec.degradedThresholdMs} ms`,
      actual:
        s.avgMs === null
          ? null
          : `min/avg/max ${ms(s.minMs)}/${ms(s.avgMs)}/${ms(s.maxMs)} ms, jitter ${ms(s.jitterMs)} ms`,
      passed:
        s.avgMs !== null &&
        (spec.degradedThresholdMs === null || s.avgMs <= spec.degradedThresholdMs),
      soft: true,
    },
  ];
}

function failed(failure: CheckFailure, dnsMs: number | null): CheckRun {
  return {
    outcome: 'down',
    latencyMs: null,
    phases: { ...noPhases, dns: dnsMs },
    httpStatus: null,
    errorCode: failure.code,
    errorMessage: failure.message,
    responseSize: null,
    certExpiresAt: null,
    details: { certificate: null, assertions: [] },
  };
}
