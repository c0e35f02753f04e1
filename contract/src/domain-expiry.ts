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
