import {
  OidcProviderInput,
  type OidcProvider,
  type OidcProviderValues,
  type SignInOptions,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { OidcProviderFields, OidcProviderRecord } from '../../db/repositories/oidc.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { discover, redirectRefusal } from './client.js';
import { OidcFailure } from './errors.js';
import { readSignInPolicy } from './policy.js';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

/** The one redirect URI every provider is registered with: PAGEWATCH_PUBLIC_URL's, else the request's. */
export function redirectUriFor(deps: Pick<ServiceDeps, 'publicUrl'>, origin: string): string {
  return `${(deps.publicUrl ?? origin).replace(/\/+$/, '')}${CALLBACK_PATH}`;
}

/** What leaves the server: never the client secret, only whether one is stored. */
export function presentProvider(p: OidcProviderRecord, redirectUri: string): OidcProvider {
  return {
    id: p.id,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecretSet: p.clientSecret !== null,
    scopes: p.scopes,
    emailClaim: p.emailClaim,
    nameClaim: p.nameClaim,
    groupsClaim: p.groupsClaim,
    defaultRole: p.defaultRole,
    signUp: p.signUp,
    roleMappings: p.roleMappings,
    allowedDomains: p.allowedDomains,
    enabled: p.enabled,
    redirectUri,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
  };
}

/**
 * An issuer that cannot be discovered is refused at save, on the issuer field; so is a
 * provider whose authorization endpoint says outright that it does not know our redirect URI.
 */
async function checkProvider(v: OidcProviderValues, redirectUri: string): Promise<void> {
  let config;
  try {
    config = await discover(v.issuer, v.clientId);
  } catch (err) {
    const detail = err instanceof OidcFailure ? err.detail : String(err);
    throw validationFailed(
      [{ path: 'issuer', code: 'oidc_discovery_failed', message: detail }],
      'The identity provider could not be discovered',
    );
  }
  const refusal = await redirectRefusal(config, v, redirectUri);
  if (refusal)
    throw validationFailed(
      [{ path: 'clientId', code: 'oidc_redirect_uri_mismatch', message: refusal }],
      'The identity provider does not accept this redirect URI',
    );
}

function fieldsOf(v: OidcProviderValues, sealedSecret: string | null): OidcProviderFields {
  return {
    name: v.name,
    issuer: v.issuer.replace(/\/+$/, ''),
    clientId: v.clientId,
    clientSecret: sealedSecret,
    scopes: v.scopes.split(/\s+/).filter(Boolean).join(' '),
    emailClaim: v.emailClaim,
    nameClaim: v.nameClaim,
    groupsClaim: v.groupsClaim,
    defaultRole: v.defaultRole,
    signUp: v.signUp,
    roleMappings: v.roleMappings,
    allowedDomains: [...new Set(v.allowedDomains)],
    enabled: v.enabled,
  };
}

export async function listProviders(deps: ServiceDeps): Promise<OidcProviderRecord[]> {
  return deps.repos.oidc.list();
}

export async function createProvider(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: OidcProviderValues,
  redirectUri: string,
): Promise<OidcProviderRecord> {
  await checkProvider(input, redirectUri);
  const secret = input.clientSecret ? deps.secrets.seal(input.clientSecret) : null;
  const p = await deps.repos.oidc.insert(fieldsOf(input, secret), deps.clock.now());
  await audit(
    deps,
    ctx,
    'oidc_provider.created',
    { type: 'oidc_provider', id: p.id },
    `Added sign-in provider ${p.name} (${p.issuer})`,
  );
  return p;
}

/** Replaces a provider; an absent or empty client secret keeps the stored one. */
export async function updateProvider(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: OidcProviderValues,
  redirectUri: string,
): Promise<OidcProviderRecord> {
  const before = await deps.repos.oidc.find(id);
  if (!before) throw notFound('Sign-in provider');
  await checkProvider(input, redirectUri);
  const secret = input.clientSecret ? deps.secrets.seal(input.clientSecret) : before.clientSecret;
  const p = await deps.repos.oidc.update(id, fieldsOf(input, secret), deps.clock.now());
  if (!p) throw notFound('Sign-in provider');
  const secretNote = input.clientSecret ? '; client secret replaced' : '';
  await audit(
    deps,
    ctx,
    'oidc_provider.updated',
    { type: 'oidc_provider', id },
    `Changed sign-in provider ${p.name}${secretNote}`,
  );
  return p;
}

export async function removeProvider(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const p = await deps.repos.oidc.find(id);
  if (!p || !(await deps.repos.oidc.remove(id))) throw notFound('Sign-in provider');
  await audit(
    deps,
    ctx,
    'oidc_provider.deleted',
    { type: 'oidc_provider', id },
    `Removed sign-in provider ${p.name}`,
  );
}

/** The login page's choices: enabled providers and whether everyone may use a password. */
export async function signInOptions(deps: ServiceDeps): Promise<SignInOptions> {
  const providers = (await deps.repos.oidc.list()).filter((p) => p.enabled);
  const policy = await readSignInPolicy(deps);
  return {
    providers: providers.map((p) => ({ id: p.id, name: p.name })),
    passwordForEveryone: policy.passwordSignIn === 'everyone' || providers.length === 0,
  };
}

export { OidcProviderInput };
