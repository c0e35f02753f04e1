import { STATUS_CODES } from 'node:http';
import type { Keyword } from '@pagewatch/contract';
import { CheckFailure } from './errors.js';

/** e.g. `HTTP 503 Service Unavailable (expected 200-299)`. */
export function statusFailure(status: number, accepted: readonly string[]): CheckFailure {
  const reason = STATUS_CODES[status];
  const name = reason === undefined ? `HTTP ${status}` : `HTTP ${status} ${reason}`;
  return new CheckFailure('http_status', `${name} (expected ${accepted.join(', ')})`);
}

const QUOTE_MAX = 40;

/** The keyword as it appears in messages: quoted, escaped, shortened. */
export function quoteKeyword(value: string): string {
  const chars = [...value];
  const short = chars.length > QUOTE_MAX ? `${chars.slice(0, QUOTE_MAX).join('')}…` : value;
  return JSON.stringify(short);
}

/** "1 MiB", "512 KiB", "1,000 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Judges the body against the keyword; null when it passes. A body cut at the cap only fails as
 * too large when a required keyword was not in the part that was read.
 */
export function keywordFailure(
  keyword: Keyword,
  body: Buffer,
  truncated: boolean,
  maxBytes: number,
): CheckFailure | null {
  const text = body.toString('utf8');
  const found = keyword.caseSensitive
    ? text.includes(keyword.value)
    : text.toLowerCase().includes(keyword.value.toLowerCase());
  const quoted = quoteKeyword(keyword.value);
  if (keyword.mode === 'absent') {
    return found
      ? new CheckFailure('keyword_present', `Keyword ${quoted} was found but must be absent`)
      : null;
  }
  if (found) return null;
  if (truncated) {
    const limit = formatBytes(maxBytes);
    return new CheckFailure(
      'response_too_large',
      `Keyword ${quoted} was not found in the first ${limit} of the body, which is larger than the ${limit} read limit`,
    );
  }
  return new CheckFailure(
    'keyword_missing',
    `Keyword ${quoted} was not found in the response body`,
  );
}

/** e.g. `Responded in 850 ms, above the 500 ms threshold`. */
export function degradedMessage(latencyMs: number, thresholdMs: number): string {
  return `Responded in ${Math.round(latencyMs)} ms, above the ${thresholdMs} ms threshold`;
}
