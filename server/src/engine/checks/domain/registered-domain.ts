import { getDomain } from 'tldts-icann';

/**
 * The domain a registry holds for a host name: `www.example.co.uk` → `example.co.uk`.
 *
 * Decided with the ICANN section of the public suffix list (tldts-icann, updated with the
 * package), not the private section: `user.github.io` is registered at the registry as
 * `github.io`, and that is the registration that can lapse. Null for IP addresses, bare public
 * suffixes (`co.uk`) and names under no known suffix.
 */
export function registeredDomain(host: string): string | null {
  const name = host.trim().replace(/\.$/, '').toLowerCase();
  if (name === '' || /^[\d.]+$/.test(name) || name.includes(':')) return null;
  return getDomain(name, { allowPrivateDomains: false }) ?? null;
}
