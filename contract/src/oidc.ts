import { z } from 'zod';

/*
 * OpenID Connect single sign-on (issue 21, ADR 48/49): providers an owner or admin configures
 * in Settings → Sign-in, the login page's buttons and the stable codes of a refused sign-in.
 */

/** Roles OIDC may grant: never owner, which is only ever handed over (SPEC §6). */
export const OidcRole = z.enum(['viewer', 'editor', 'admin']);
export type OidcRole = z.infer<typeof OidcRole>;

const ClaimName = z
  .string()
  .trim()
  .min(1, 'Enter a claim name')
  .max(100, 'Claim names are limited to 100 characters')
  .regex(/^[A-Za-z0-9_.:/-]+$/, 'Use letters, digits and _ . : / - only');

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Enter a domain such as example.com');

export const OidcRoleMapping = z.strictObject({
  /** A value of the groups claim (or the claim itself when it is a string). */
  value: z.string().trim().min(1, 'Enter a group').max(200),
  role: OidcRole,
});
export type OidcRoleMapping = z.infer<typeof OidcRoleMapping>;

/** POST / PUT body of a provider; on PUT an absent or empty clientSecret keeps the stored one. */
export const OidcProviderInput = z.strictObject({
  name: z.string().trim().min(1, 'Enter a name').max(60, 'Names are limited to 60 characters'),
  issuer: z
    .url({ protocol: /^https?$/, error: 'Enter the issuer URL, e.g. https://id.example.com' })
    .max(500),
  clientId: z.string().trim().min(1, 'Enter the client id').max(300),
  clientSecret: z.string().max(1000).optional(),
  scopes: z
    .string()
    .trim()
    .max(300)
    .regex(/^[\x21-\x7e ]*$/, 'Scopes are plain words separated by spaces')
    .refine((s) => s.split(/\s+/).includes('openid'), 'The scopes must include openid')
    .default('openid email profile'),
  emailClaim: ClaimName.default('email'),
  nameClaim: ClaimName.default('name'),
  /** The claim holding the person's groups; null when no mapping is wanted. */
  groupsClaim: ClaimName.nullable().default('groups'),
  /** The role of a person no mapping matches. */
  defaultRole: OidcRole.default('viewer'),
  /** `create`: a first sign-in makes the account; `invited`: only existing or invited people. */
  signUp: z.enum(['create', 'invited']).default('invited'),
  /** Checked in order at every sign-in; the highest matching role wins. */
  roleMappings: z.array(OidcRoleMapping).max(50).default([]),
  /** Empty: any domain. */
  allowedDomains: z.array(Domain).max(50).default([]),
  enabled: z.boolean().default(true),
});
export type OidcProviderInput = z.input<typeof OidcProviderInput>;
export type OidcProviderValues = z.output<typeof OidcProviderInput>;

/** A provider as the API answers it: the client secret never leaves the server. */
export const OidcProvider = z.object({
  id: z.number().int(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** Whether a client secret is stored (public clients have none). */
  clientSecretSet: z.boolean(),
  scopes: z.string(),
  emailClaim: z.string(),
  nameClaim: z.string(),
  groupsClaim: z.string().nullable(),
  defaultRole: OidcRole,
  signUp: z.enum(['create', 'invited']),
  roleMappings: z.array(OidcRoleMapping),
  allowedDomains: z.array(z.string()),
  enabled: z.boolean(),
  /** The redirect URI to register at the provider. */
  redirectUri: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type OidcProvider = z.infer<typeof OidcProvider>;

export const OidcProviderIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** Who may sign in with a password: everyone, or only the owner (the break-glass account). */
export const SignInPolicy = z.strictObject({
  passwordSignIn: z.enum(['everyone', 'owner_only']),
});
export type SignInPolicy = z.infer<typeof SignInPolicy>;

/** GET /auth/oidc/:id/start: where to land after signing in (a path of the app). */
export const OidcStartQuery = z.object({ returnTo: z.string().max(500).optional() });

/** POST /auth/oidc/logout: where the browser goes next to end the provider's session too. */
export const OidcLogoutResult = z.object({
  /** The provider's end-session URL; null when the session was not begun at a provider. */
  endSessionUrl: z.string().nullable(),
});
export type OidcLogoutResult = z.infer<typeof OidcLogoutResult>;

/** What the login page offers (public). */
export const SignInOptions = z.object({
  providers: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** False when only the owner may use a password: the form is folded behind a link. */
  passwordForEveryone: z.boolean(),
});
export type SignInOptions = z.infer<typeof SignInOptions>;

/**
 * Why an OIDC sign-in was refused: the callback sends the browser to `/login?oidc_error=CODE`
 * and the login page shows these words (docs/security.md lists them).
 */
export const oidcErrorMessages = {
  oidc_discovery_failed:
    'The identity provider could not be reached or its discovery document is not valid.',
  oidc_provider_unknown: 'This sign-in option is no longer available.',
  oidc_flow_missing:
    'This sign-in started in another browser or took too long. Start again; if it keeps happening, the redirect URI registered at the provider must be this server’s address.',
  oidc_state_mismatch: 'The answer from the identity provider does not belong to this sign-in.',
  oidc_nonce_mismatch: 'The ID token does not belong to this sign-in.',
  oidc_code_rejected:
    'The identity provider refused the code exchange: the PKCE verifier did not match, or the code was used or expired.',
  oidc_redirect_uri_mismatch:
    'The identity provider refused the redirect URI: register the one shown in Settings → Sign-in.',
  oidc_token_expired: 'The ID token has expired. If this repeats, check this server’s clock.',
  oidc_clock_skew:
    'The ID token’s times do not fit this server’s clock; the clocks of the server and the provider differ.',
  oidc_email_missing: 'The identity provider sent no email address for you.',
  oidc_email_unverified: 'The identity provider has not verified your email address.',
  oidc_domain_not_allowed: 'Your email domain may not sign in here.',
  oidc_not_invited: 'You have no account here yet; ask an admin for an invitation.',
  oidc_account_disabled: 'This account is disabled.',
  oidc_provider_error: 'The identity provider refused the sign-in.',
  oidc_failed: 'The sign-in with the identity provider failed.',
} as const;
export type OidcErrorCode = keyof typeof oidcErrorMessages;
export const isOidcErrorCode = (v: string): v is OidcErrorCode => v in oidcErrorMessages;
