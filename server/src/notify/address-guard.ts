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

// Multicast and broadcast: no HTTP or SMTP peer can answer there, so no setting allows them.
const neverUnicast = new net.BlockList();
neverUnicast.addSubnet('224.0.0.0', 4, 'ipv4');
neverUnicast.addAddress('255.255.255.255', 'ipv4');
neverUnicast.addSubnet('ff00::', 8, 'ipv6');

// Loopback, private and reserved ranges (benchmarking, TEST-NET, IETF protocol assignments,
// 240/4): not on the public internet, but a lab or a private network may use them.
const privateBlocked = new net.BlockList();
for (const [net4, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['240.0.0.0', 4],
] as const) {
  privateBlocked.addSubnet(net4, bits, 'ipv4');
}
privateBlocked.addAddress('::1', 'ipv6');
privateBlocked.addAddress('::', 'ipv6');
privateBlocked.addSubnet('fc00::', 7, 'ipv6');
privateBlocked.addSubnet('fec0::', 10, 'ipv6');
privateBlocked.addSubnet('2001:db8::', 32, 'ipv6');

/** The settings that decide whether private addresses are refused. */
export type PrivateSetting =
  'PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS' | 'PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS';

/** Where a send may connect: whether private addresses are refused, and which setting said so. */
export interface EgressPolicy {
  blockPrivate: boolean;
  /** Named in the refusal of a private address, so it points at the setting that applies. */
  setting: PrivateSetting;
}

/** Notification channels (and the SMTP server subscriber mail goes through). */
export const channelEgress = (blockPrivate: boolean): EgressPolicy => ({
  blockPrivate,
  setting: 'PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS',
});

/** Webhooks status-page visitors typed. */
export const subscriberWebhookEgress = (allowPrivate: boolean): EgressPolicy => ({
  blockPrivate: !allowPrivate,
  setting: 'PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS',
});

/** Why an address is refused; `carried` is the IPv4 address an IPv6 one leads to. */
export interface Refusal {
  address: string;
  reason: 'metadata' | 'multicast' | 'private' | 'invalid';
  carried?: string;
}

/** Thrown by the guarded lookup; the HTTP client turns it into a permanent ChannelError. */
export class RefusedAddress extends ChannelError {
  constructor(
    readonly refusal: Refusal,
    setting: PrivateSetting,
  ) {
    super(refusalMessage(refusal, setting), true);
  }

  get address(): string {
    return this.refusal.address;
  }
}

const WHAT: Record<Refusal['reason'], string> = {
  metadata: 'a link-local or cloud metadata address',
  multicast: 'a multicast or broadcast address',
  private: 'a private address',
  invalid: 'not an IP address',
};

function refusalMessage({ address, reason, carried }: Refusal, setting: PrivateSetting): string {
  const what = reason === 'private' ? `${WHAT.private} (${setting})` : WHAT[reason];
  return carried
    ? `refused: ${address} carries ${carried}, ${what}`
    : `refused: ${address} is ${what}`;
}

function judgeIPv4(ip: string, blockPrivate: boolean): Refusal['reason'] | null {
  if (alwaysBlocked.check(ip, 'ipv4')) return 'metadata';
  if (neverUnicast.check(ip, 'ipv4')) return 'multicast';
  return blockPrivate && privateBlocked.check(ip, 'ipv4') ? 'private' : null;
}

// When an IPv6 address leads to several IPv4 ones, the refusal names the gravest.
const GRAVITY: Refusal['reason'][] = ['metadata', 'multicast', 'private'];

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
  if (neverUnicast.check(ip, 'ipv6')) return { address, reason: 'multicast' };
  const carried = embeddedIPv4(ip).map((e) => ({ ...e, reason: judgeIPv4(e.ipv4, blockPrivate) }));
  for (const reason of GRAVITY) {
    const worst = carried.find((e) => e.reason === reason);
    if (worst) return { address, reason, carried: worst.ipv4 };
  }
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
export function assertAllowedHost(hostname: string, policy: EgressPolicy): void {
  const verdict = judgeWithoutLookup(hostname, policy.blockPrivate);
  if (verdict) throw new RefusedAddress(verdict, policy.setting);
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
export function guardedLookup(policy: EgressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = firstRefused(addresses, policy.blockPrivate);
      if (refused) return callback(new RefusedAddress(refused, policy.setting), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Resolves a host once and checks every address; for clients without a lookup hook (SMTP). */
export async function resolveAllowed(hostname: string, policy: EgressPolicy): Promise<string> {
  assertAllowedHost(hostname, policy);
  const host = bareHost(hostname);
  if (net.isIP(host) !== 0) return host;
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new ChannelError(`could not resolve ${host}`, false);
  }
  const refused = firstRefused(addresses, policy.blockPrivate);
  if (refused) throw new RefusedAddress(refused, policy.setting);
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
