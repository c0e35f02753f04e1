import { oidcErrorMessages, type OidcErrorCode } from '@pagewatch/contract';
import * as oidc from 'openid-client';
import { AppError } from '../../lib/errors.js';

/**
 * A refused OIDC sign-in: a 401 whose one field error carries the stable code
 * (`oidc_state_mismatch`…); the callback turns it into `/login?oidc_error=CODE`.
 */
export class OidcFailure extends AppError {
  constructor(
    readonly code: OidcErrorCode,
    /** What the audit log and server log get; the person sees the contract's words. */
    readonly detail: string = oidcErrorMessages[code],
  ) {
    super('unauthenticated', oidcErrorMessages[code], [
      { path: '', code, message: oidcErrorMessages[code] },
    ]);
  }
}

/** How far the provider's and this server's clocks may differ before a sign-in is refused. */
export const CLOCK_SKEW_S = 300;

const mentions = (text: unknown, word: string) =>
  typeof text === 'string' && text.toLowerCase().includes(word);

/** What went wrong, from the client library's error, as a stable code. */
export function classify(err: unknown): OidcFailure {
  if (err instanceof OidcFailure) return err;
  if (err instanceof oidc.AuthorizationResponseError) {
    const text = `${err.error} ${err.error_description ?? ''}`;
    return new OidcFailure(
      mentions(text, 'redirect_uri') ? 'oidc_redirect_uri_mismatch' : 'oidc_provider_error',
      `The provider answered ${text.trim()}`,
    );
  }
  if (err instanceof oidc.ResponseBodyError) {
    const text = `${err.error} ${err.error_description ?? ''}`;
    if (mentions(text, 'redirect_uri'))
      return new OidcFailure('oidc_redirect_uri_mismatch', `Token endpoint: ${text}`);
    // invalid_grant is what a provider answers a code_verifier that does not match the challenge.
    if (err.error === 'invalid_grant')
      return new OidcFailure('oidc_code_rejected', `Token endpoint: ${text}`);
    return new OidcFailure('oidc_provider_error', `Token endpoint: ${text}`);
  }
  if (err instanceof oidc.ClientError) {
    const cause = err.cause as
      | { message?: string; cause?: { claim?: string; now?: number; claims?: { iat?: unknown } } }
      | undefined;
    const claim = cause?.cause?.claim;
    const message = `${err.message}: ${cause?.message ?? ''}`;
    if (err.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
      // A token issued moments ago that reads as issued long ago means the clocks differ.
      const iat = cause?.cause?.claims?.iat;
      const now = cause?.cause?.now;
      const skewed =
        claim !== 'exp' ||
        (typeof iat === 'number' && typeof now === 'number' && now - iat > CLOCK_SKEW_S);
      return new OidcFailure(skewed ? 'oidc_clock_skew' : 'oidc_token_expired', message);
    }
    if (err.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim === 'nonce')
      return new OidcFailure('oidc_nonce_mismatch', message);
    if (err.code === 'OAUTH_INVALID_RESPONSE' && mentions(cause?.message, '"state"'))
      return new OidcFailure('oidc_state_mismatch', message);
    return new OidcFailure('oidc_failed', message);
  }
  return new OidcFailure('oidc_failed', err instanceof Error ? err.message : String(err));
}
