import dns from 'node:dns';
import { performance } from 'node:perf_hooks';
import type { AssertionResult, DnsMatch, DnsRecordType } from '@pagewatch/contract';
import { noPhases, type CheckContext, type CheckRun } from '../types.js';
import { CheckFailure, classifyError, degradedMessage, roundMs } from '../socket.js';
import { compareAnswers, normaliseExpected, queryRecords } from './answers.js';

export interface DnsCheckSpec {
  host: string;
  recordType: DnsRecordType;
  /** `ip`, `ip:port` or `[v6]:port`; empty: the system's resolvers. */
  resolver: string;
  expected: string[];
  match: DnsMatch;
  timeoutMs: number;
  degradedThresholdMs: number | null;
}

/** c-ares answers that mean the name or the record is not there. */
const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);
/** c-ares answers that mean the server could not or would not answer. */
const SERVER_FAILURE = new Set([
  'ESERVFAIL',
  'EREFUSED',
  'ECONNREFUSED',
  'EBADRESP',
  'EFORMERR',
  'ENOTIMP',
  'EBADFAMILY',
]);

/** Asks the resolver once, compares the answers; never throws. */
export async function runDnsCheck(spec: DnsCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  // One resolver per check: cancel() stops every query of a resolver, so sharing one between
  // concurrent checks would let one check's deadline fail the others.
  const resolver = new dns.promises.Resolver({ timeout: spec.timeoutMs, tries: 1 });
  const question = `${spec.recordType} ${spec.host}`;
  const start = performance.now();
  // Set by the deadline or the caller; a held object so the closures' writes are seen below.
  const halt: { reason: CheckFailure | null } = { reason: null };
  const stop = (failure: CheckFailure): void => {
    halt.reason ??= failure;
    resolver.cancel();
  };
  const timer = setTimeout(
    () => stop(timeoutFailure(spec, question)),
    // c-ares times out by itself at the same moment; ours also covers a resolver that hangs.
    spec.timeoutMs,
  );
  const onAbort = (): void =>
    stop(new CheckFailure('timeout', 'The check was stopped during the DNS lookup'));
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (spec.resolver !== '') resolver.setServers([spec.resolver]);
    const answers = await queryRecords(resolver, spec.recordType, spec.host);
    if (halt.reason !== null) throw halt.reason;
    return judge(spec, question, answers, roundMs(performance.now() - start));
  } catch (err) {
    const failure = halt.reason ?? classifyDnsError(err, spec, question);
    return {
      outcome: 'down',
      latencyMs: null,
      phases: noPhases,
      httpStatus: null,
      errorCode: failure.code,
      errorMessage: failure.message,
      responseSize: null,
      certExpiresAt: null,
      details: { certificate: null, assertions: [assertion(spec, question, null, false)] },
    };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function judge(
  spec: DnsCheckSpec,
  question: string,
  answers: string[],
  latencyMs: number,
): CheckRun {
  const { passed, missing } = compareAnswers(spec.recordType, spec.expected, spec.match, answers);
  const threshold = spec.degradedThresholdMs;
  const slow = threshold !== null && latencyMs > threshold;
  let errorCode: CheckRun['errorCode'] = null;
  let errorMessage: string | null = null;
  if (!passed) {
    errorCode = 'dns_unexpected_answer';
    errorMessage = unexpectedMessage(spec, question, answers, missing);
  } else if (slow) {
    errorCode = 'degraded_latency';
    errorMessage = degradedMessage(latencyMs, threshold);
  }
  return {
    outcome: passed ? (slow ? 'degraded' : 'up') : 'down',
    latencyMs,
    phases: { ...noPhases, dns: latencyMs },
    httpStatus: null,
    errorCode,
    errorMessage,
    responseSize: null,
    certExpiresAt: null,
    details: { certificate: null, assertions: [assertion(spec, question, answers, passed)] },
  };
}

const listed = (values: readonly string[]): string =>
  values.length === 0 ? 'nothing' : values.join(', ');

/** The expected values as compared, so messages show them the way answers are shown. */
const wanted = (spec: DnsCheckSpec): string[] =>
  spec.expected.map((v) => normaliseExpected(spec.recordType, v));

function expectedText(spec: DnsCheckSpec): string {
  if (spec.expected.length === 0) return 'at least one record';
  const values = listed(wanted(spec));
  if (spec.expected.length === 1) return values;
  return `${spec.match === 'all' ? 'all of' : 'any of'} ${values}`;
}

/** The lookup as one expected-vs-actual line; actual is null when nothing was answered. */
function assertion(
  spec: DnsCheckSpec,
  question: string,
  answers: string[] | null,
  passed: boolean,
): AssertionResult {
  return {
    kind: 'dns',
    target: `${question} records`,
    expected: expectedText(spec),
    actual: answers === null ? null : listed(answers),
    passed,
    soft: false,
  };
}

function unexpectedMessage(
  spec: DnsCheckSpec,
  question: string,
  answers: string[],
  missing: string[],
): string {
  const got = `got ${listed(answers)}`;
  if (spec.match === 'all' && spec.expected.length > 1) {
    return `${question}: expected all of ${listed(wanted(spec))} but ${listed(missing)} missing; ${got}`;
  }
  return `${question}: expected ${expectedText(spec)} but ${got}`;
}

function where(spec: DnsCheckSpec): string {
  return spec.resolver === '' ? 'the system resolver' : spec.resolver;
}

function timeoutFailure(spec: DnsCheckSpec, question: string): CheckFailure {
  return new CheckFailure(
    'dns_timeout',
    `${where(spec)} did not answer ${question} within ${spec.timeoutMs} ms`,
  );
}

function classifyDnsError(err: unknown, spec: DnsCheckSpec, question: string): CheckFailure {
  const code =
    typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'UNKNOWN';
  if (code === 'ENOTFOUND') {
    return new CheckFailure('dns_not_found', `${spec.host} does not exist (NXDOMAIN)`);
  }
  if (NOT_FOUND.has(code)) {
    return new CheckFailure('dns_not_found', `${spec.host} has no ${spec.recordType} records`);
  }
  if (code === 'ETIMEOUT') return timeoutFailure(spec, question);
  if (SERVER_FAILURE.has(code)) {
    const why =
      code === 'ESERVFAIL'
        ? 'answered SERVFAIL'
        : code === 'EREFUSED'
          ? 'refused the query'
          : code === 'ECONNREFUSED'
            ? 'could not be reached'
            : 'sent an answer that could not be read';
    return new CheckFailure(
      'dns_server_failure',
      `${where(spec)} ${why} for ${question} (${code})`,
    );
  }
  // Anything else (local exhaustion included) fails as every other check type fails.
  return classifyError(err, 'dns', { host: spec.host, port: 53 });
}
