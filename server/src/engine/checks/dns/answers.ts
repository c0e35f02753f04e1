import type dns from 'node:dns';
import net from 'node:net';
import type { DnsMatch, DnsRecordType } from '@pagewatch/contract';

type Resolver = dns.promises.Resolver;

/** A name as compared: lower case, no trailing dot (DNS names are case-insensitive, RFC 4343). */
export const normaliseName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/** An IPv6 address in its shortest form, so `2001:DB8:0::1` and `2001:db8::1` compare equal. */
function normaliseIpv6(address: string): string {
  const bare = address.trim();
  if (net.isIPv6(bare)) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return bare.toLowerCase();
}

/** `flags tag "value"` with the tag in lower case; quotes around the value are optional on input. */
function caaText(flags: number, tag: string, value: string): string {
  return `${flags} ${tag.toLowerCase()} "${value}"`;
}

/**
 * Turns one typed expected value into the form answers are rendered in, so both compare as
 * strings. The formats per type are those documented on DnsMonitorInput.
 */
export function normaliseExpected(type: DnsRecordType, value: string): string {
  const text = value.trim();
  switch (type) {
    case 'A':
    case 'TXT':
      return text;
    case 'AAAA':
      return normaliseIpv6(text);
    case 'CNAME':
    case 'NS':
      return normaliseName(text);
    case 'MX': {
      const [priority = '', exchange = ''] = text.split(/\s+/);
      return `${Number(priority)} ${normaliseName(exchange)}`;
    }
    case 'SOA': {
      const [primary = '', serial = ''] = text.split(/\s+/);
      return `${normaliseName(primary)} ${Number(serial)}`;
    }
    case 'CAA': {
      const match = /^(\d+)\s+(\S+)\s+(.*)$/.exec(text);
      if (match === null) return text;
      const [, flags = '0', tag = '', raw = ''] = match;
      return caaText(Number(flags), tag, raw.replace(/^"(.*)"$/, '$1'));
    }
  }
}

/** Asks for the records of one type and renders each answer as text in the normalised form. */
export async function queryRecords(
  resolver: Resolver,
  type: DnsRecordType,
  host: string,
): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(host);
    case 'AAAA':
      return (await resolver.resolve6(host)).map(normaliseIpv6);
    case 'CNAME':
      return (await resolver.resolveCname(host)).map(normaliseName);
    case 'NS':
      return (await resolver.resolveNs(host)).map(normaliseName);
    case 'MX':
      return (await resolver.resolveMx(host)).map(
        (r) => `${r.priority} ${normaliseName(r.exchange)}`,
      );
    case 'TXT':
      // A TXT record is a list of ≤ 255-byte strings that together make one value (RFC 7208 §3.3).
      return (await resolver.resolveTxt(host)).map((chunks) => chunks.join(''));
    case 'SOA': {
      const soa = await resolver.resolveSoa(host);
      return [`${normaliseName(soa.nsname)} ${soa.serial}`];
    }
    case 'CAA':
      return (await resolver.resolveCaa(host)).map((r) => {
        const [tag = '', value = ''] = Object.entries(r).find(([key]) => key !== 'critical') ?? [];
        return caaText(r.critical, tag, String(value));
      });
  }
}

export interface Comparison {
  passed: boolean;
  /** Expected values (normalised) that are not among the answers. */
  missing: string[];
}

/** `any`: one expected value among the answers is enough; `all`: every one must be there. */
export function compareAnswers(
  type: DnsRecordType,
  expected: readonly string[],
  match: DnsMatch,
  answers: readonly string[],
): Comparison {
  const wanted = expected.map((v) => normaliseExpected(type, v));
  const got = new Set(answers);
  const missing = wanted.filter((v) => !got.has(v));
  if (wanted.length === 0) return { passed: answers.length > 0, missing };
  const passed = match === 'all' ? missing.length === 0 : missing.length < wanted.length;
  return { passed, missing };
}
