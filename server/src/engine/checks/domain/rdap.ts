import { servicesFor, type RdapBootstrap } from './bootstrap.js';

/** One RDAP domain lookup (RFC 9082 query, RFC 9083 answer) and what it found. */

export type RdapFailureCode =
  | 'domain_not_found'
  | 'rdap_unsupported'
  | 'rdap_bad_answer'
  | 'rdap_timeout'
  | 'rdap_rate_limited'
  | 'rdap_unavailable';

export type RdapAnswer =
  | {
      ok: true;
      domain: string;
      server: string;
      expiresAt: number;
      registrar: string | null;
      /** When the registry answered. */
      at: number;
    }
  | {
      ok: false;
      domain: string;
      server: string | null;
      code: RdapFailureCode;
      message: string;
      at: number;
      /** 429: how long the service asked us to wait, ms. */
      retryAfterMs?: number;
    };

/** RDAP answers are small; a registry sending megabytes is answering something else. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; null if absent. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

interface RdapEntity {
  roles?: unknown;
  vcardArray?: unknown;
}

/** The registrar's name from its jCard (`fn`), when the answer names one. */
function registrarOf(entities: unknown): string | null {
  if (!Array.isArray(entities)) return null;
  for (const entity of entities as RdapEntity[]) {
    if (!Array.isArray(entity?.roles) || !entity.roles.includes('registrar')) continue;
    const card = Array.isArray(entity.vcardArray) ? (entity.vcardArray[1] as unknown) : null;
    if (!Array.isArray(card)) continue;
    for (const prop of card as unknown[]) {
      if (Array.isArray(prop) && prop[0] === 'fn' && typeof prop[3] === 'string') {
        return prop[3].slice(0, 200);
      }
    }
  }
  return null;
}

/** The expiration event of an RDAP domain object, or why there is none. */
export function expiryOf(
  body: unknown,
): { ok: true; expiresAt: number; registrar: string | null } | { ok: false; message: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The RDAP answer is not a JSON object' };
  }
  const doc = body as { objectClassName?: unknown; events?: unknown; entities?: unknown };
  if (doc.objectClassName !== undefined && doc.objectClassName !== 'domain') {
    return {
      ok: false,
      message: `The RDAP answer is a ${JSON.stringify(doc.objectClassName)}, not a domain`,
    };
  }
  if (!Array.isArray(doc.events)) {
    return { ok: false, message: 'The RDAP answer lists no events, so no expiration date' };
  }
  const event = (doc.events as { eventAction?: unknown; eventDate?: unknown }[]).find(
    (e) => e?.eventAction === 'expiration',
  );
  if (!event)
    return { ok: false, message: 'The registry gives no expiration date for this domain' };
  const expiresAt = typeof event.eventDate === 'string' ? Date.parse(event.eventDate) : NaN;
  if (Number.isNaN(expiresAt)) {
    return { ok: false, message: `The expiration date "${String(event.eventDate)}" is not a date` };
  }
  return { ok: true, expiresAt, registrar: registrarOf(doc.entities) };
}

async function readBounded(res: Response): Promise<string | null> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface LookupOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  now: () => number;
}

/** Asks the TLD's RDAP service about `domain` (a registered domain, lower case). */
export async function lookupDomain(
  bootstrap: RdapBootstrap,
  domain: string,
  options: LookupOptions,
): Promise<RdapAnswer> {
  const [server] = servicesFor(bootstrap, domain);
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (server === undefined) {
    return {
      ok: false,
      domain,
      server: null,
      code: 'rdap_unsupported',
      message: `No RDAP service is known for .${tld} (IANA's bootstrap file names none); refresh the bootstrap file if the registry has started one`,
      at: options.now(),
    };
  }
  const url = new URL(`domain/${encodeURIComponent(domain)}`, server).href;
  const fail = (code: RdapFailureCode, message: string, extra: { retryAfterMs?: number } = {}) =>
    ({ ok: false, domain, server, code, message, at: options.now(), ...extra }) as RdapAnswer;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/rdap+json, application/json;q=0.9' },
      redirect: 'follow',
      signal,
    });
    if (res.status === 404) {
      await res.body?.cancel();
      return fail('domain_not_found', `The registry has no domain ${domain}: it is not registered`);
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const wait = retryAfterMs(res.headers.get('retry-after'), options.now());
      return fail(
        'rdap_rate_limited',
        `The RDAP service of .${tld} limits requests (429)${wait === null ? '' : `; it asks to wait ${Math.ceil(wait / 1000)} s`}`,
        wait === null ? {} : { retryAfterMs: wait },
      );
    }
    if (!res.ok) {
      await res.body?.cancel();
      return fail('rdap_unavailable', `The RDAP service of .${tld} answered ${res.status}`);
    }
    const text = await readBounded(res);
    if (text === null) return fail('rdap_bad_answer', 'The RDAP answer is larger than 1 MiB');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail('rdap_bad_answer', 'The RDAP answer is not JSON');
    }
    const expiry = expiryOf(body);
    if (!expiry.ok) return fail('rdap_bad_answer', expiry.message);
    return {
      ok: true,
      domain,
      server,
      expiresAt: expiry.expiresAt,
      registrar: expiry.registrar,
      at: options.now(),
    };
  } catch (err) {
    if (timeout.aborted) {
      return fail(
        'rdap_timeout',
        `The RDAP service of .${tld} did not answer within ${options.timeoutMs < 1000 ? `${options.timeoutMs} ms` : `${Math.round(options.timeoutMs / 1000)} s`}`,
      );
    }
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return fail(
      'rdap_unavailable',
      `The RDAP service of .${tld} could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message})`,
    );
  }
}
