import {
  domainExpiryDefaults,
  HttpMethod,
  isHarmlessHeader,
  JsonPath,
  parseStatusRange,
  type AssertionDraft,
} from '@pagewatch/contract';
import { registeredDomain } from '../../../engine/checks/domain/registered-domain.js';
import type { KumaMonitor } from './source.js';

/** Why a monitor cannot be carried over faithfully; it is then listed as skipped. */
export class Unmappable extends Error {}

/** The request headers of Kuma's JSON text; anything but a name → value object is refused. */
function headersOf(m: KumaMonitor): { name: string; value: string; secret: boolean }[] {
  const raw = m.headers?.trim() ?? '';
  if (raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Unmappable('its headers are not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Unmappable('its headers are not a JSON object of name → value');
  }
  return Object.entries(parsed as Record<string, unknown>).map(([name, value]) => ({
    name,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    // Kuma keeps every header in clear; Pagewatch seals all but the harmless ones (ADR 17).
    secret: !isHarmlessHeader(name),
  }));
}

/** Kuma sends JSON unless told form or XML; an empty body is no body. */
function bodyOf(m: KumaMonitor, notes: string[]): { bodyType: string; body: string } {
  const body = m.body ?? '';
  if (body.trim() === '') return { bodyType: 'none', body: '' };
  const encoding = (m.httpBodyEncoding ?? 'json').toLowerCase();
  if (encoding === 'form') return { bodyType: 'form', body };
  if (encoding === 'json') {
    try {
      JSON.parse(body);
      return { bodyType: 'json', body };
    } catch {
      notes.push('The body is not valid JSON, so it is sent as typed (raw)');
      return { bodyType: 'raw', body };
    }
  }
  notes.push(
    `The ${encoding.toUpperCase()} body is sent as typed (raw); add a Content-Type header if the server needs one`,
  );
  return { bodyType: 'raw', body };
}

/** Every code of 100–599 Kuma's list does not accept, as ranges: upside-down mode for HTTP. */
export function invertedCodes(accepted: readonly string[]): string[] {
  const ok = new Array<boolean>(600).fill(false);
  for (const text of accepted) {
    const r = parseStatusRange(text);
    if (r) for (let c = r.from; c <= r.to; c++) ok[c] = true;
  }
  const out: string[] = [];
  let start: number | null = null;
  for (let c = 100; c <= 600; c++) {
    const take = c < 600 && !ok[c];
    if (take && start === null) start = c;
    if (!take && start !== null) {
      out.push(start === c - 1 ? String(start) : `${start}-${c - 1}`);
      start = null;
    }
  }
  return out;
}

/** Kuma 2.x evaluates JSONata; plain paths (`$.a.b`, `a.b[0]`) are JSONPath as well. */
function jsonPathOf(path: string): string | null {
  const trimmed = path.trim();
  const candidate = trimmed.startsWith('$') ? trimmed : `$.${trimmed}`;
  return JsonPath.safeParse(candidate).success ? candidate : null;
}

function jsonAssertion(m: KumaMonitor): AssertionDraft {
  const path = jsonPathOf(m.jsonPath ?? '');
  if (path === null) {
    throw new Unmappable(
      `its JSON query "${m.jsonPath ?? ''}" is a JSONata expression beyond a plain path, which Pagewatch's JSON assertions cannot express`,
    );
  }
  const operator = m.jsonPathOperator ?? '==';
  const op = operator === '==' ? 'equals' : operator === 'contains' ? 'contains' : null;
  if (op === null) {
    throw new Unmappable(
      `its JSON query compares with "${operator}"; Pagewatch's JSON assertions test equals, contains, exists and not exists`,
    );
  }
  return { kind: 'json', path, op, value: m.expectedValue ?? '' };
}

function authOf(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  const method = m.authMethod ?? '';
  if (method === 'basic') {
    return { kind: 'basic', username: m.basicAuthUser ?? '', password: m.basicAuthPass ?? '' };
  }
  if (method === 'bearer' && m.bearerToken) return { kind: 'bearer', token: m.bearerToken };
  if (method !== '' && method !== 'null') {
    notes.push(`Authentication "${method}" has no Pagewatch equivalent and was left out`);
  }
  return { kind: 'none' };
}

/**
 * Kuma's domain name expiry notification (2.1+) as the domain registration option. Kuma turns
 * it on for every monitor; it is kept only where the URL's host has a registered domain (not
 * for IP addresses, localhost or bare suffixes), where a lookup can say something. Kuma's
 * warning days are an instance setting, not the monitor's: Pagewatch's default (30) is used.
 */
function domainExpiryOf(m: KumaMonitor, notes: string[]): { domainExpiry?: { warnDays: number } } {
  if (!m.domainExpiryNotification || !m.url) return {};
  let host: string;
  try {
    host = new URL(m.url).hostname;
  } catch {
    return {};
  }
  const domain = registeredDomain(host);
  if (domain === null) return {};
  notes.push(
    `Its domain expiry notification watches the registration of ${domain}, warning 30 days ahead`,
  );
  return { domainExpiry: { warnDays: domainExpiryDefaults.warnDays } };
}

/** The HTTP fields of an `http`, `keyword` or `json-query` monitor. */
export function httpFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  const method = (m.method ?? 'GET').toUpperCase();
  if (!HttpMethod.safeParse(method).success) {
    throw new Unmappable(`Pagewatch does not send ${method} requests`);
  }
  const assertions: AssertionDraft[] = [];
  if (m.type === 'keyword') {
    if (!m.keyword) throw new Unmappable('it has no keyword');
    let mode: 'present' | 'absent' = m.invertKeyword ? 'absent' : 'present';
    if (m.upsideDown) {
      mode = mode === 'present' ? 'absent' : 'present';
      notes.push('Upside-down mode became the opposite keyword test');
    }
    assertions.push({ kind: 'keyword', value: m.keyword, mode, caseSensitive: true });
  } else if (m.type === 'json-query') {
    if (m.upsideDown) {
      throw new Unmappable('upside-down mode of a JSON query has no Pagewatch equivalent');
    }
    assertions.push(jsonAssertion(m));
  }
  let accepted = m.acceptedStatuscodes.length > 0 ? m.acceptedStatuscodes : ['200-299'];
  if (m.upsideDown && m.type === 'http') {
    accepted = invertedCodes(accepted);
    notes.push(
      `Upside-down mode became the accepted status codes ${accepted.join(', ')}; a request that gets no answer at all is still down in Pagewatch`,
    );
  }
  const maxRedirects = Math.min(10, Math.max(0, Math.round(m.maxredirects)));
  if (m.maxredirects > 10)
    notes.push(`Redirects followed: ${m.maxredirects} → 10 (Pagewatch's most)`);
  const ipFamily = m.ipFamily === 'ipv4' || m.ipFamily === 'ipv6' ? m.ipFamily : 'auto';
  return {
    url: m.url ?? '',
    method,
    headers: headersOf(m),
    ...bodyOf(m, notes),
    auth: authOf(m, notes),
    acceptedStatusCodes: accepted,
    followRedirects: maxRedirects > 0,
    maxRedirects,
    ignoreTls: m.ignoreTls,
    ipFamily,
    assertions,
    ...domainExpiryOf(m, notes),
  };
}
