import * as oidc from 'openid-client';
import type { RequestContext } from '../../domain/actor.js';
import type { ServiceDeps } from '../deps.js';
import { configurationFor } from './client.js';

/**
 * For a session begun through OIDC: the provider's end-session URL (RP-initiated logout) with
 * the ID token as hint, or null when the provider has none. Called before the session ends.
 */
export async function providerLogoutUrl(
  deps: ServiceDeps,
  ctx: RequestContext,
  postLogoutRedirectUri: string,
): Promise<string | null> {
  if (ctx.actor.type !== 'user') return null;
  const held = await deps.repos.oidc.takeSession(ctx.actor.sessionHash);
  if (!held) return null;
  const provider = await deps.repos.oidc.find(held.providerId);
  if (!provider) return null;
  try {
    const { config } = await configurationFor(deps, provider);
    if (!config.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(config, {
      id_token_hint: deps.secrets.open(held.idToken),
      post_logout_redirect_uri: postLogoutRedirectUri,
      client_id: provider.clientId,
    }).href;
  } catch {
    // A provider unreachable at sign-out must not keep anyone signed in here.
    return null;
  }
}
