import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import net from 'node:net';
import { ChannelError } from './channel.js';

// Cloud metadata and link-local: never a notification target. IPv4 rules also match the
// IPv4-mapped IPv6 forms (::ffff:a.b.c.d), which net.BlockList checks natively.
const alwaysBlocked = new net.BlockList();
alwaysBlocked.addSubnet('169.254.0.0', 16, 'ipv4');
alwaysBlocked.addSubnet('fe80::', 10, 'ipv6');
alwaysBlocked.addAddress('fd00:ec2::254', 'ipv6');

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

/** Thrown by the guarded lookup; the HTTP client turns it into a permanent ChannelError. */
export class RefusedAddress extends ChannelError {
  constructor(readonly address: string) {
    super(
      `refused: ${address} is a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)`,
      true,
    );
  }
}

/** Whether a notification may connect to this IP address. */
export function isAllowedAddress(address: string, blockPrivate: boolean): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (alwaysBlocked.check(address, type)) return false;
  return !(blockPrivate && privateBlocked.check(address, type));
}

/** Strips the brackets URL.hostname keeps around IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Refuses an IP-literal host up front: Node connects to literals without any lookup. */
export function assertAllowedLiteral(hostname: string, blockPrivate: boolean): void {
  const host = bareHost(hostname);
  if (net.isIP(host) !== 0 && !isAllowedAddress(host, blockPrivate)) {
    throw new RefusedAddress(host);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request/net.connect that refuses a name when any of its addresses is
 * forbidden, so the check applies to the address actually connected (no DNS rebinding window).
 */
export function guardedLookup(blockPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, blockPrivate));
      if (refused) return callback(new RefusedAddress(refused.address), []);
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
  const host = bareHost(hostname);
  if (net.isIP(host) !== 0) {
    assertAllowedLiteral(host, blockPrivate);
    return host;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new ChannelError(`could not resolve ${host}`, false);
  }
  const refused = addresses.find((a) => !isAllowedAddress(a.address, blockPrivate));
  if (refused) throw new RefusedAddress(refused.address);
  const first = addresses[0];
  if (!first) throw new ChannelError(`could not resolve ${host}`, false);
  return first.address;
}
