import type { IncomingHttpHeaders } from 'node:http';
import { ChannelError } from './channel.js';

const EXCERPT = 300;

export class TimedOut extends ChannelError {
  constructor(ms: number) {
    super(`timed out after ${formatSeconds(ms)}`, false);
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Retry-After as delay-seconds or an HTTP date, in ms from now; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * A non-2xx answer as a ChannelError: 4xx but 408/429 are permanent (retrying sends the same
 * request), the rest transient. `detail` replaces the body excerpt (e.g. an API's error field).
 */
export function httpError(
  res: { status: number; headers: IncomingHttpHeaders; body: string },
  detail?: string,
): ChannelError {
  const transient = res.status === 408 || res.status === 429 || res.status >= 500;
  const text = (detail ?? res.body).trim().slice(0, EXCERPT);
  const header = res.headers['retry-after'];
  return new ChannelError(
    text ? `HTTP ${res.status}: ${text}` : `HTTP ${res.status}`,
    !transient && res.status >= 400,
    parseRetryAfter(Array.isArray(header) ? header[0] : header),
  );
}

const NETWORK_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  ENOTFOUND: 'could not resolve',
  EAI_AGAIN: 'could not resolve',
};

/** A socket or TLS failure as a transient ChannelError that never echoes the URL's path. */
export function describeNetworkError(err: unknown, url: URL): ChannelError {
  if (err instanceof ChannelError) return err;
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  const code = e.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ChannelError(`could not resolve ${url.hostname}`, false);
  }
  const where = e.address ? `${e.address}:${e.port ?? url.port}` : url.host;
  const text = NETWORK_TEXT[code];
  if (text) return new ChannelError(`${text} (${where})`, false);
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/i.test(code)) {
    return new ChannelError(`TLS error (${where}): ${e.message}`, false);
  }
  return new ChannelError(`${e.message || 'request failed'} (${where})`, false);
}
