import { STATUS_CODES } from 'node:http';
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

/** e.g. `Responded in 850 ms, above the 500 ms threshold`. */
export function degradedMessage(latencyMs: number, thresholdMs: number): string {
  return `Responded in ${Math.round(latencyMs)} ms, above the ${thresholdMs} ms threshold`;
}
