/** Who the passkeys belong to, as WebAuthn names it: an RP ID (a host name) and an origin. */
export interface RelyingParty {
  /** The host name passkeys are scoped to (no scheme, no port). */
  rpID: string;
  /** The exact origin the browser must report (`https://status.example.com`). */
  origin: string;
  /** What an authenticator shows beside the account. */
  rpName: string;
}

/**
 * The relying party from PAGEWATCH_PUBLIC_URL when it is set (ADR 50), else from the address
 * the browser used. Passkeys registered under one host name work only there: set the public
 * URL before people register them, and keep it.
 */
export function relyingParty(
  publicUrl: string | null | undefined,
  requestOrigin: string,
  rpName: string,
): RelyingParty {
  const url = new URL(publicUrl ?? requestOrigin);
  return { rpID: url.hostname, origin: url.origin, rpName };
}
