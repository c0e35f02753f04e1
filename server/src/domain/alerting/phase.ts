import type { CheckErrorCode, FailurePhase } from '@pagewatch/contract';

const byPrefix: [string, FailurePhase][] = [
  ['dns_', 'dns'],
  ['connect_', 'connect'],
  ['tls_', 'tls'],
  ['browser_', 'browser'],
  ['response_', 'content'],
];

const exact: Partial<Record<CheckErrorCode, FailurePhase>> = {
  timeout: 'ttfb',
  http_status: 'ttfb',
  keyword_missing: 'content',
  keyword_present: 'content',
  json_assertion: 'content',
  header_assertion: 'content',
  regex_assertion: 'content',
};

/** The delivery phase a check failure happened in, from its SPEC §8 code. */
export function failurePhase(code: CheckErrorCode | null): FailurePhase | null {
  if (code === null) return null;
  const known = exact[code];
  if (known) return known;
  return byPrefix.find(([prefix]) => code.startsWith(prefix))?.[1] ?? 'other';
}
