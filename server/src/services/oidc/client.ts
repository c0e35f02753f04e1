import * as oidc from 'openid-client';
import type { OidcProviderRecord } from '../../db/repositories/oidc.js';
import type { ServiceDeps } from '../deps.js';
import { OidcFailure } from './errors.js';

// Discovery documents change rarely; a sign-in should not pay a round trip for them.
const METADATA_TTL_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

interface Discovered {
  server: oidc.ServerMetadata;
  jwks: ReturnType<typeof oidc.getJwksCache>;
  until: number;
}

export interface ProviderClient {
  config: oidc.Configuration;
  /** Keeps the signing keys this client fetched for the next sign-ins. */
  keepKeys(): void;
}

const discovered = new Map<string, Discovered>();

// The cast: openid-client's option type is its own structural one, which the DOM and Node
// `RequestInit` declarations (both seen by the root type check) each accept at run time.
const timedFetch: oidc.CustomFetch = (url, options) =>
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed by `tsc -p .`
  fetch(url, {
    ...options,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  } as RequestInit);

function authOf(provider: OidcProviderRecord, secret: string | null, server: oidc.ServerMetadata) {
  if (!secret) return oidc.None();
  const methods = server.token_endpoint_auth_methods_supported;
  // RFC 8414: absent means client_secret_basic only.
  return !methods || methods.includes('client_secret_basic')
    ? oidc.ClientSecretBasic(secret)
    : oidc.ClientSecretPost(secret);
}

/**
 * A client configuration for one provider. Timestamps in tokens are judged by the app's clock
 * (the skew between it and the system clock is passed on), so the whole server shares one time.
 */
export async function configurationFor(
  deps: Pick<ServiceDeps, 'clock' | 'secrets'>,
  provider: OidcProviderRecord,
): Promise<ProviderClient> {
  const key = `${provider.id}:${provider.updatedAt}:${provider.issuer}`;
  let entry = discovered.get(key);
  const nowReal = Date.now();
  if (!entry || entry.until <= nowReal) {
    const found = await discover(provider.issuer, provider.clientId);
    entry = { server: found.serverMetadata(), jwks: undefined, until: nowReal + METADATA_TTL_MS };
    discovered.set(key, entry);
  }
  const secret = provider.clientSecret ? deps.secrets.open(provider.clientSecret) : null;
  const config = new oidc.Configuration(
    entry.server,
    provider.clientId,
    {
      [oidc.clockSkew]: Math.round((deps.clock.now() - nowReal) / 1000),
    },
    authOf(provider, secret, entry.server),
  );
  config[oidc.customFetch] = timedFetch;
  if (new URL(provider.issuer).protocol === 'http:') oidc.allowInsecureRequests(config);
  if (entry.jwks) oidc.setJwksCache(config, entry.jwks);
  const kept = entry;
  return {
    config,
    keepKeys: () => {
      kept.jwks = oidc.getJwksCache(config) ?? kept.jwks;
    },
  };
}

/**
 * Asks the provider's authorization endpoint (no redirect followed) whether it takes this
 * client and redirect URI: a 4xx page that names the redirect URI is its refusal, in its words.
 * Anything else (a login page, a redirect to one) is taken as accepted.
 */
export async function redirectRefusal(
  config: oidc.Configuration,
  v: { clientId: string; scopes: string },
  redirectUri: string,
): Promise<string | null> {
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: v.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: oidc.randomState(),
  });
  try {
    const res = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (res.status < 400 || res.status >= 500) return null;
    const text = (await res.text()).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    const at = text.toLowerCase().indexOf('redirect_uri');
    if (at < 0) return null;
    return `The provider answered ${res.status}: ${text.slice(Math.max(0, at - 80), at + 160).trim()} (register ${redirectUri})`;
  } catch {
    return null;
  }
}

/** Reads the issuer's discovery document, or fails with `oidc_discovery_failed`. */
export async function discover(issuer: string, clientId: string): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  try {
    return await oidc.discovery(url, clientId, undefined, undefined, {
      [oidc.customFetch]: timedFetch,
      ...(url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    throw new OidcFailure(
      'oidc_discovery_failed',
      `Discovery at ${issuer} failed: ${describe(err)}`,
    );
  }
}

export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`.slice(0, 300);
}

/** Forgets every cached discovery document (tests that restart a provider on a new port). */
export function forgetDiscovered(): void {
  discovered.clear();
}
