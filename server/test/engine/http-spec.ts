import type { Assertion } from '@pagewatch/contract';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { runHttpCheck, type HttpCheckSpec } from '../../src/engine/checks/http/index.js';

/** A GET spec with the monitor defaults and a short deadline, for loopback targets. */
export function httpSpec(url: string, overrides: Partial<HttpCheckSpec> = {}): HttpCheckSpec {
  return {
    url,
    method: 'GET',
    headers: [],
    bodyType: 'none',
    body: '',
    auth: { kind: 'none' },
    acceptedStatusCodes: ['200-299'],
    followRedirects: true,
    maxRedirects: 10,
    ipFamily: 'auto',
    ignoreTls: false,
    assertions: [],
    timeoutMs: 5000,
    degradedThresholdMs: null,
    ...overrides,
  };
}

/** Runs a check with a signal nobody aborts. */
export function check(url: string, overrides: Partial<HttpCheckSpec> = {}): Promise<CheckRun> {
  return runHttpCheck(httpSpec(url, overrides), { signal: new AbortController().signal });
}

/** A keyword assertion with the schema's defaults. */
export function keyword(
  value: string,
  mode: 'present' | 'absent' = 'present',
  caseSensitive = true,
): Assertion {
  return { kind: 'keyword', value, mode, caseSensitive, soft: false };
}
