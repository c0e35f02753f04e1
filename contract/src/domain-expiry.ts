import { z } from 'zod';

/** Domain registration expiry through RDAP: a monitor type and an option of HTTP monitors. */

export const domainExpiryDefaults = {
  /** Registrations renew yearly and transfers take days: a month's notice, unlike certificates. */
  warnDays: 30,
} as const;

export const DomainExpiryWarnDays = z
  .number({ error: 'Enter a number of days' })
  .int('Whole days only')
  .min(1, 'Warn at least 1 day ahead')
  .max(365, 'Warn at most 365 days ahead')
  .default(domainExpiryDefaults.warnDays);

/** The HTTP monitor's option: also watch the URL's registered domain. */
export const DomainExpiryOption = z.strictObject({ warnDays: DomainExpiryWarnDays });
export type DomainExpiryOption = z.infer<typeof DomainExpiryOption>;

/** What the last registration lookup found, shown beside the check. */
export const DomainRegistration = z.object({
  /** The registered domain looked up (e.g. `example.co.uk` for `www.example.co.uk`). */
  domain: z.string(),
  /** The registry's expiration date; null when the lookup failed. */
  expiresAt: z.iso.datetime().nullable(),
  registrar: z.string().nullable(),
  /** The RDAP service asked (from the bootstrap file); null when the TLD has none. */
  server: z.string().nullable(),
  /** When the registry answered (lookups are cached for hours). */
  checkedAt: z.iso.datetime().nullable(),
  /** Why the lookup failed, when it did (a check code) and in words. */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
export type DomainRegistration = z.infer<typeof DomainRegistration>;

/** Where IANA publishes the RDAP bootstrap file for domain names (RFC 9224). */
export const IANA_DNS_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/** The RDAP bootstrap file domain expiry uses: shipped with Pagewatch, or refreshed since. */
export const RdapBootstrapStatus = z.object({
  source: z.enum(['shipped', 'refreshed']),
  /** The file's own `publication` date (when IANA published it), when it has one. */
  publication: z.iso.datetime().nullable(),
  /** TLDs with an RDAP service in it. */
  tlds: z.number().int(),
  /** When it was downloaded into the data directory; null for the shipped file. */
  refreshedAt: z.iso.datetime().nullable(),
  /** Where it was downloaded from; null for the shipped file or when not recorded (older CLI). */
  refreshedFrom: z.string().nullable(),
  /** Where a refresh downloads from by default. */
  defaultSource: z.string(),
});
export type RdapBootstrapStatus = z.infer<typeof RdapBootstrapStatus>;

/** Download the bootstrap file again, from IANA unless `from` names another copy. */
export const RdapBootstrapRefresh = z.strictObject({
  from: z
    .string()
    .trim()
    .max(2048, 'URLs are limited to 2,048 characters')
    .refine((v) => {
      try {
        return /^https?:$/.test(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'Enter an http:// or https:// URL, e.g. https://data.iana.org/rdap/dns.json')
    .default(IANA_DNS_BOOTSTRAP_URL),
});
export type RdapBootstrapRefresh = z.infer<typeof RdapBootstrapRefresh>;
