import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import {
  parseJsonPath,
  selectJsonPath,
  statusAccepted,
  type Assertion,
  type AssertionResult,
} from '@pagewatch/contract';
import { formatBytes, quoteKeyword, statusFailure } from './assess.js';
import { boundedExec, REGEX_TIME_LIMIT_MS } from './bounded-regex.js';
import { CheckFailure } from './errors.js';

/** What the assertions look at: the final response, its body as read, and the timing. */
export interface ResponseFacts {
  status: number;
  headers: IncomingHttpHeaders;
  /** Decoded body up to the read limit; null when no assertion needed it. */
  body: Buffer | null;
  /** The body went past the read limit and the rest was not read. */
  truncated: boolean;
  /** Body bytes received (before decompression). */
  wireBytes: number;
  latencyMs: number;
  maxBodyBytes: number;
}

/** One assertion as judged: the result to show, and the failure it stands for when it failed. */
export interface Judged {
  result: AssertionResult;
  failure: CheckFailure | null;
}

const SHOW_MAX = 120;

/** A value as it appears in expected/actual: JSON, shortened. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  const chars = [...text];
  return chars.length > SHOW_MAX ? `${chars.slice(0, SHOW_MAX).join('')}…` : text;
}

function statusText(status: number): string {
  const reason = STATUS_CODES[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}

/** Whether an assertion needs the body's content (not just its size). */
export function needsBody(assertion: Assertion): boolean {
  return assertion.kind === 'keyword' || assertion.kind === 'regex' || assertion.kind === 'json';
}

/** The accepted status codes, always the first result. */
export function judgeStatus(status: number, accepted: readonly string[]): Judged {
  const passed = statusAccepted(status, accepted);
  const actual = statusText(status);
  return {
    result: {
      kind: 'status',
      target: 'status code',
      expected: accepted.join(', '),
      actual,
      passed,
      soft: false,
    },
    failure: passed ? null : statusFailure(status, accepted),
  };
}

function judged(
  assertion: Assertion,
  target: string,
  expected: string,
  actual: string | null,
  failure: CheckFailure | null,
): Judged {
  return {
    result: {
      kind: assertion.kind,
      target,
      expected,
      actual,
      passed: failure === null,
      soft: assertion.soft,
    },
    failure,
  };
}

function tooLarge(facts: ResponseFacts, what: string): CheckFailure {
  const limit = formatBytes(facts.maxBodyBytes);
  return new CheckFailure(
    'response_too_large',
    `${what} in the first ${limit} of the body, which is larger than the ${limit} read limit`,
  );
}

function bodyText(facts: ResponseFacts): string {
  return facts.body === null ? '' : facts.body.toString('utf8');
}

function judgeKeyword(a: Extract<Assertion, { kind: 'keyword' }>, facts: ResponseFacts): Judged {
  const text = bodyText(facts);
  const index = a.caseSensitive
    ? text.indexOf(a.value)
    : text.toLowerCase().indexOf(a.value.toLowerCase());
  const quoted = quoteKeyword(a.value);
  const anyCase = a.caseSensitive ? '' : ' (any case)';
  const target = 'body';
  if (a.mode === 'absent') {
    const expected = `does not contain ${quoted}${anyCase}`;
    if (index < 0) return judged(a, target, expected, 'not found', null);
    return judged(
      a,
      target,
      expected,
      `found at character ${index}`,
      new CheckFailure('keyword_present', `Keyword ${quoted} was found but must be absent`),
    );
  }
  const expected = `contains ${quoted}${anyCase}`;
  if (index >= 0) return judged(a, target, expected, `found at character ${index}`, null);
  if (facts.truncated) {
    return judged(
      a,
      target,
      expected,
      `not found in the first ${formatBytes(facts.maxBodyBytes)}`,
      tooLarge(facts, `Keyword ${quoted} was not found`),
    );
  }
  return judged(
    a,
    target,
    expected,
    'not found',
    new CheckFailure('keyword_missing', `Keyword ${quoted} was not found in the response body`),
  );
}

function judgeRegex(a: Extract<Assertion, { kind: 'regex' }>, facts: ResponseFacts): Judged {
  const shown = `/${a.pattern}/${a.flags}`;
  const expected = a.mode === 'present' ? `matches ${shown}` : `does not match ${shown}`;
  const outcome = boundedExec(a.pattern, a.flags, bodyText(facts));
  if (outcome.kind === 'timeout') {
    return judged(
      a,
      'body',
      expected,
      `gave up after ${REGEX_TIME_LIMIT_MS} ms`,
      new CheckFailure(
        'regex_assertion',
        `The regular expression ${shown} did not finish within ${REGEX_TIME_LIMIT_MS} ms; simplify it (nested repeats like (a+)+ backtrack without end)`,
      ),
    );
  }
  const actual = outcome.kind === 'match' ? `matched ${show(outcome.text)}` : 'no match';
  const matched = outcome.kind === 'match';
  if (a.mode === 'absent') {
    const failure = matched
      ? new CheckFailure('regex_assertion', `The body matches ${shown} but must not (${actual})`)
      : null;
    return judged(a, 'body', expected, actual, failure);
  }
  if (matched) return judged(a, 'body', expected, actual, null);
  const failure = facts.truncated
    ? tooLarge(facts, `${shown} did not match`)
    : new CheckFailure('regex_assertion', `The body does not match ${shown}`);
  return judged(a, 'body', expected, actual, failure);
}

/** The assertion's value as JSON when it parses, as text otherwise. */
function expectedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function jsonContains(actual: unknown, expected: unknown, raw: string): boolean {
  if (typeof actual === 'string') {
    return actual.includes(raw) || (typeof expected === 'string' && actual.includes(expected));
  }
  if (Array.isArray(actual)) return actual.some((item) => isDeepStrictEqual(item, expected));
  return isDeepStrictEqual(actual, expected);
}

const JSON_EXPECTED = {
  equals: (v: unknown) => `equals ${show(v)}`,
  contains: (v: unknown) => `contains ${show(v)}`,
  exists: () => 'exists',
  not_exists: () => 'does not exist',
} as const;

function judgeJson(a: Extract<Assertion, { kind: 'json' }>, facts: ResponseFacts): Judged {
  const want = expectedValue(a.value);
  const expected = JSON_EXPECTED[a.op](want);
  const fail = (actual: string, message: string) =>
    judged(a, a.path, expected, actual, new CheckFailure('json_assertion', message));
  let doc: unknown;
  try {
    doc = JSON.parse(bodyText(facts));
  } catch {
    if (facts.truncated) {
      return judged(
        a,
        a.path,
        expected,
        'body too large to parse',
        tooLarge(facts, 'No complete JSON document'),
      );
    }
    return fail(
      'body is not JSON',
      `The response body is not JSON, so ${a.path} could not be checked`,
    );
  }
  const segments = parseJsonPath(a.path) ?? [];
  const found = selectJsonPath(doc, segments);
  const actual = found.length === 0 ? 'missing' : found.length === 1 ? show(found[0]) : show(found);
  let passed: boolean;
  switch (a.op) {
    case 'exists':
      passed = found.length > 0;
      break;
    case 'not_exists':
      passed = found.length === 0;
      break;
    case 'equals':
      passed = found.some((value) => isDeepStrictEqual(value, want));
      break;
    case 'contains':
      passed = found.some((value) => jsonContains(value, want, a.value));
      break;
  }
  if (passed) return judged(a, a.path, expected, actual, null);
  return fail(actual, `JSON ${a.path}: expected ${expected}, got ${actual}`);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function judgeHeader(a: Extract<Assertion, { kind: 'header' }>, facts: ResponseFacts): Judged {
  const target = `header ${a.name}`;
  const value = headerValue(facts.headers, a.name);
  const expected =
    a.op === 'exists'
      ? 'present'
      : a.op === 'equals'
        ? `equals ${show(a.value)}`
        : a.op === 'contains'
          ? `contains ${show(a.value)} (any case)`
          : `matches /${a.value}/`;
  const actual = value === null ? 'absent' : show(value);
  const fail = (message: string) =>
    judged(a, target, expected, actual, new CheckFailure('header_assertion', message));
  const mismatch = `Header ${a.name}: expected ${expected}, got ${actual}`;
  if (value === null) return fail(mismatch);
  switch (a.op) {
    case 'exists':
      return judged(a, target, expected, actual, null);
    case 'equals':
      return value.trim() === a.value.trim()
        ? judged(a, target, expected, actual, null)
        : fail(mismatch);
    case 'contains':
      return value.toLowerCase().includes(a.value.toLowerCase())
        ? judged(a, target, expected, actual, null)
        : fail(mismatch);
    case 'matches': {
      const outcome = boundedExec(a.value, '', value);
      if (outcome.kind === 'timeout') {
        return fail(
          `The pattern for header ${a.name} did not finish within ${REGEX_TIME_LIMIT_MS} ms`,
        );
      }
      return outcome.kind === 'match' ? judged(a, target, expected, actual, null) : fail(mismatch);
    }
  }
}

function judgeLatency(a: Extract<Assertion, { kind: 'latency' }>, facts: ResponseFacts): Judged {
  const ms = Math.round(facts.latencyMs);
  const expected = `at most ${a.maxMs} ms`;
  const actual = `${ms} ms`;
  const failure =
    facts.latencyMs > a.maxMs
      ? new CheckFailure('degraded_latency', `Responded in ${ms} ms, above the ${a.maxMs} ms limit`)
      : null;
  return judged(a, 'response time', expected, actual, failure);
}

function judgeSize(a: Extract<Assertion, { kind: 'size' }>, facts: ResponseFacts): Judged {
  const bytes = facts.wireBytes;
  const expected = `${a.op === 'at_most' ? 'at most' : 'at least'} ${formatBytes(a.bytes)}`;
  const actual = facts.truncated ? `more than ${formatBytes(bytes)}` : formatBytes(bytes);
  const message = `The body is ${actual}; expected ${expected}`;
  if (a.op === 'at_least') {
    if (bytes >= a.bytes) return judged(a, 'body size', expected, actual, null);
    return judged(
      a,
      'body size',
      expected,
      actual,
      new CheckFailure('response_too_small', message),
    );
  }
  // Past the read limit the size is only known to exceed what was read.
  if (bytes <= a.bytes && !facts.truncated) return judged(a, 'body size', expected, actual, null);
  return judged(a, 'body size', expected, actual, new CheckFailure('response_too_large', message));
}

/** Judges one assertion; never throws for anything the response contains. */
export function judgeAssertion(assertion: Assertion, facts: ResponseFacts): Judged {
  switch (assertion.kind) {
    case 'keyword':
      return judgeKeyword(assertion, facts);
    case 'regex':
      return judgeRegex(assertion, facts);
    case 'json':
      return judgeJson(assertion, facts);
    case 'header':
      return judgeHeader(assertion, facts);
    case 'latency':
      return judgeLatency(assertion, facts);
    case 'size':
      return judgeSize(assertion, facts);
  }
}
