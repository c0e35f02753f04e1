import net from 'node:net';

/** How an IPv6 address carries an IPv4 one; each is routed to (or through) that IPv4 host. */
export type EmbeddingForm =
  | 'mapped'
  | 'translated'
  | 'compatible'
  | 'nat64'
  | 'nat64-local'
  | '6to4'
  | 'teredo-server'
  | 'teredo-client'
  | 'isatap';

export interface EmbeddedIPv4 {
  form: EmbeddingForm;
  /** Dotted quad. */
  ipv4: string;
}

/** The 16 bytes of an IPv6 address in any spelling (zone id ignored), or null if it is not one. */
export function ipv6Bytes(text: string): Uint8Array | null {
  const address = text.replace(/%.*$/s, '');
  if (!net.isIPv6(address)) return null;
  // A dotted tail (::ffff:1.2.3.4) becomes two hex groups; net.isIPv6 has vetted its octets.
  const hex = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a: string, b: string, c: string, d: string) =>
      `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [left = '', right] = hex.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

const quad = (b: Uint8Array, at: number[]) => at.map((i) => b[i]).join('.');
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const zero = (b: Uint8Array, from: number, to = 16) => range(from, to).every((i) => b[i] === 0);
const starts = (b: Uint8Array, prefix: number[]) => prefix.every((v, i) => b[i] === v);

// RFC 6052 §2.2: where a /L translation prefix puts the IPv4 bytes (byte 8 is always skipped).
// Inside the local-use /48 an operator may pick any of these lengths; the IPv4 is followed only
// by zeros in a well-formed address, which tells the candidates apart.
const NAT64_LAYOUTS = [
  { ipv4: [6, 7, 9, 10], suffixFrom: 11 },
  { ipv4: [7, 9, 10, 11], suffixFrom: 12 },
  { ipv4: [9, 10, 11, 12], suffixFrom: 13 },
  { ipv4: [12, 13, 14, 15], suffixFrom: 16 },
];

/**
 * Every IPv4 address an IPv6 address may lead to: IPv4-mapped (::ffff:0:0/96), translated
 * (::ffff:0:0:0/96), compatible (::/96 but :: and ::1), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 * 6to4 (2002::/16), Teredo (2001::/32, server and client) and ISATAP interface ids.
 */
export function embeddedIPv4(address: string): EmbeddedIPv4[] {
  const b = ipv6Bytes(address);
  if (!b) return [];
  const last = quad(b, [12, 13, 14, 15]);
  const found: EmbeddedIPv4[] = [];
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff)
    found.push({ form: 'mapped', ipv4: last });
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) {
    found.push({ form: 'translated', ipv4: last });
  }
  const unspecifiedOrLoopback = zero(b, 12, 15) && b[15]! <= 1;
  if (zero(b, 0, 12) && !unspecifiedOrLoopback) found.push({ form: 'compatible', ipv4: last });
  if (starts(b, [0, 0x64, 0xff, 0x9b]) && zero(b, 4, 12)) found.push({ form: 'nat64', ipv4: last });
  if (starts(b, [0, 0x64, 0xff, 0x9b, 0, 1]) && b[8] === 0) {
    for (const layout of NAT64_LAYOUTS) {
      if (zero(b, layout.suffixFrom))
        found.push({ form: 'nat64-local', ipv4: quad(b, layout.ipv4) });
    }
  }
  if (starts(b, [0x20, 0x02])) found.push({ form: '6to4', ipv4: quad(b, [2, 3, 4, 5]) });
  if (starts(b, [0x20, 0x01, 0, 0])) {
    found.push({ form: 'teredo-server', ipv4: quad(b, [4, 5, 6, 7]) });
    const client = [12, 13, 14, 15].map((i) => b[i]! ^ 0xff).join('.');
    found.push({ form: 'teredo-client', ipv4: client });
  }
  // RFC 5214: interface id 0000:5efe or 0200:5efe followed by the IPv4 (not a prefix of its own).
  if ((b[8]! & 0xfc) === 0 && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) {
    found.push({ form: 'isatap', ipv4: last });
  }
  return dedupe(found);
}

function dedupe(found: EmbeddedIPv4[]): EmbeddedIPv4[] {
  const seen = new Set<string>();
  return found.filter((e) => !seen.has(`${e.form} ${e.ipv4}`) && seen.add(`${e.form} ${e.ipv4}`));
}
