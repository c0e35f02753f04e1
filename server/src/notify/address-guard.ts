import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net from 'node:net';
import { ChannelError } from './channel.js';
import { embeddedIPv4 } from './embedded-ipv4.js';

// Link-local and cloud metadata: never a notification target, whatever the settings. The
// exact addresses are each provider's metadata, host or agent service (docs/security.md).
const alwaysBlocked = new net.BlockList();
alwaysBlocked.addSubnet('169.254.0.0', 16, 'ipv4');
for (const ip of ['100.100.100.200', '192.0.0.192', '168.63.129.16']) {
  alwaysBlocked.addAddress(ip, 'ipv4');
}
alwaysBlocked.addSubnet('fe80::', 10, 'ipv6');
for (const ip of ['fd00:ec2::254', 'fd00:ec2::23', 'fd20:ce::254', 'fd00:c1::a9fe:a9fe']) {
  alwaysBlocked.addAddress(ip, 'ipv6');
}

const privateBlocked = new net.BlockList();
for (const [net4, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const) {
  privateBlocked.addSubnet(net4, bits, 'ipv4');
}
privateBlocked.addAddress('::1', 'ipv6');
privateBlocked.addAddress('::', 'ipv6');
privateBlocked.addSubnet('fc00::', 7, 'ipv6');
privateBlocked.addSubnet('fec0::', 10, 'ipv6');

/** Why an address is refused; `carried` is the IPv4 address an IPv6 one leads to. */
export interface Refusal {
  address: string;
  reason: 'metadata' | 'private' | 'invalid';
  carried?: string;
}

/** Thrown by the guarded lookup; the HTTP client turns it into a permanent ChannelError. */
export class RefusedAddress extends ChannelError {
  constructor(readonly refusal: Refusal) {
    super(refusalMessage(refusal), true);
  }

  get address(): string {
    return this.refusal.address;
  }
}

function refusalMessage({ address, reason, carried }: Refusal): string {
  const what =
    reason === 'metadata'
      ? 'a link-local or cloud metadata address'
      : reason === 'private'
        ? 'a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)'
        : 'not an IP address';
  return carried
    ? `refused: ${address} carries ${carried}, ${what}`
    : `refused: ${address} is ${what}`;
}

function judgeIPv4(ip: string, blockPrivate: boolean): Refusal['reason'] | null {
  if (alwaysBlocked.check(ip, 'ipv4')) return 'metadata';
  return blockPrivate && privateBlocked.check(ip, 'ipv4') ? 'private' : null;
}

/**
 * Why a notification may not connect to this IP address, or null when it may. An IPv6 address
 * that carries an IPv4 one (mapped, NAT64, 6to4, Teredo…) is also judged by that IPv4 address.
 */
export function refusal(address: string, blockPrivate: boolean): Refusal | null {
  const ip = address.replace(/%.*$/s, '');
  const family = net.isIP(ip);
  if (family === 0) return { address, reason: 'invalid' };
  if (family === 4) {
    const reason = judgeIPv4(ip, blockPrivate);
    return reason ? { address, reason } : null;
  }
  if (alwaysBlocked.check(ip, 'ipv6')) return { address, reason: 'metadata' };
  const carried = embeddedIPv4(ip).map((e) => ({ ...e, reason: judgeIPv4(e.ipv4, blockPrivate) }));
  const worst = carried.find((e) => e.reason === 'metadata') ?? carried.find((e) => e.reason);
  if (worst?.reason) return { address, reason: worst.reason, carried: worst.ipv4 };
  if (blockPrivate && privateBlocked.check(ip, 'ipv6')) return { address, reason: 'private' };
  return null;
}

/** Whether a notification may connect to this IP address. */
export function isAllowedAddress(address: string, blockPrivate: boolean): boolean {
  return refusal(address, blockPrivate) === null;
}

/** Strips the brackets URL.hostname keeps around IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** RFC 6761: `localhost` and names under it are loopback, whatever a resolver answers. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * The verdict on a host that needs no lookup: an IP literal (Node connects to those without
 * one) or a localhost name. Undefined when the host is a name to resolve.
 */
function judgeWithoutLookup(hostname: string, blockPrivate: boolean): Refusal | null | undefined {
  const host = bareHost(hostname);
  if (net.isIP(host.replace(/%.*$/s, '')) !== 0) return refusal(host, blockPrivate);
  if (isLocalhostName(host)) {
    return blockPrivate ? { address: host, reason: 'private' } : undefined;
  }
  return undefined;
}

/** Refuses an IP-literal or localhost host up front, before any lookup or connection. */
export function assertAllowedHost(hostname: string, blockPrivate: boolean): void {
  const verdict = judgeWithoutLookup(hostname, blockPrivate);
  if (verdict) throw new RefusedAddress(verdict);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const firstRefused = (addresses: LookupAddress[], blockPrivate: boolean) =>
  addresses.map((a) => refusal(a.address, blockPrivate)).find((r) => r !== null) ?? null;

/**
 * A `lookup` for http.request/net.connect that refuses a name when any of its addresses is
 * forbidden, so the check applies to the address actually connected (no DNS rebinding window).
 */
export function guardedLookup(blockPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = firstRefused(addresses, blockPrivate);
      if (refused) return callback(new RefusedAddress(refused), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Resolves a host once and checks every address; for clients without a lookup hook (SMTP). */
export async function resolveAllowed(hostname: string, blockPrivate: boolean): Promise<string> {
  assertAllowedHost(hostname, blockPrivate);
  const host = bareHost(hostname);
  if (net.isIP(host) !== 0) return host;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new ChannelError(`could not resolve ${host}`, false);
  }
  const refused = firstRefused(addresses, blockPrivate);
  if (refused) throw new RefusedAddress(refused);
  const first = addresses[0];
  if (!first) throw new ChannelError(`could not resolve ${host}`, false);
  return first.address;
}

const SUBSCRIBE_LOOKUP_MS = 3000;

/**
 * The refusal the send path would give this host now, resolving names as it does; for checks
 * made ahead of sending (a visitor's webhook). A name that does not resolve (yet) is no refusal:
 * every send judges again.
 */
export async function hostRefusal(
  hostname: string,
  blockPrivate: boolean,
): Promise<Refusal | null> {
  const verdict = judgeWithoutLookup(hostname, blockPrivate);
  if (verdict !== undefined) return verdict;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<LookupAddress[]>((resolve) => {
    timer = setTimeout(() => resolve([]), SUBSCRIBE_LOOKUP_MS);
  });
  try {
    const lookup = dns.promises.lookup(bareHost(hostname), { all: true }).catch(() => []);
    return firstRefused(await Promise.race([lookup, timeout]), blockPrivate);
  } finally {
    clearTimeout(timer);
  }
}
