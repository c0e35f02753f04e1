import type { OidcErrorCode } from '@pagewatch/contract';
import * as oidc from 'openid-client';
import type { RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import type { ServiceDeps } from '../deps.js';
import type { StartedSession } from '../auth/sessions.js';
import { startSession } from '../auth/sessions.js';
import { assertNotThrottled, recordFailure } from '../auth/throttle.js';
import { audit } from '../audit/record.js';
import { configurationFor } from './client.js';
import { classify, CLOCK_SKEW_S, OidcFailure } from './errors.js';
import { accountFor } from './accounts.js';

export const FLOW_COOKIE = 'pw_oidc';
export const FLOW_MS = 10 * 60_000;
const POLICY_REFUSALS = new Set<OidcErrorCode>([
  'oidc_domain_not_allowed',
  'oidc_not_invited',
  'oidc_email_unverified',
  'oidc_email_missing',
  'oidc_account_disabled',
]);

/** Only a path of this app: an absolute or scheme-relative return address would be an open redirect. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/';
  // Backslashes and control characters turn into a host in some browsers' URL parsing.
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  return value.slice(0, 500);
}

/** Starts a sign-in: the flow's secrets are stored, the browser gets a cookie and the provider's URL. */
export async function startOidc(
  deps: ServiceDeps,
  providerId: number,
  redirectUri: string,
  returnTo: string,
): Promise<{ flowToken: string; url: string }> {
  const provider = await deps.repos.oidc.find(providerId);
  if (!provider || !provider.enabled) throw new OidcFailure('oidc_provider_unknown');
  const { config } = await configurationFor(deps, provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const flowToken = randomToken();
  const now = deps.clock.now();
  await deps.repos.oidc.insertFlow(
    {
      idHash: sha256(flowToken),
      providerId,
      state,
      nonce,
      codeVerifier: deps.secrets.seal(verifier),
      redirectUri,
      returnTo: safeReturnTo(returnTo),
      expiresAt: now + FLOW_MS,
    },
    now,
  );
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: provider.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { flowToken, url: url.href };
}

export interface FinishedOidc {
  user: UserRecord;
  session: StartedSession;
  returnTo: string;
}

/**
 * The callback: the flow named by the browser's cookie is spent, the code exchanged and the
 * ID token checked (state, nonce, PKCE, signature, times) by openid-client, then the account
 * is found or made and a session started like any other sign-in.
 */
export async function finishOidc(
  deps: ServiceDeps,
  ctx: RequestContext,
  flowToken: string | undefined,
  query: string,
): Promise<FinishedOidc> {
  const ipSubject = ctx.ip ? [`ip:${ctx.ip}`] : [];
  await assertNotThrottled(deps, ipSubject);
  const flow = flowToken ? await deps.repos.oidc.takeFlow(sha256(flowToken)) : null;
  if (!flow || flow.expiresAt <= deps.clock.now()) throw new OidcFailure('oidc_flow_missing');
  const provider = await deps.repos.oidc.find(flow.providerId);
  if (!provider || !provider.enabled) throw new OidcFailure('oidc_provider_unknown');
  try {
    const client = await configurationFor(deps, provider);
    const tokens = await oidc.authorizationCodeGrant(
      client.config,
      new URL(`${flow.redirectUri}${query}`),
      {
        pkceCodeVerifier: deps.secrets.open(flow.codeVerifier),
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      },
    );
    client.keepKeys();
    const idClaims = tokens.claims() as Record<string, unknown> | undefined;
    if (!idClaims || !tokens.id_token) throw new OidcFailure('oidc_failed', 'No ID token');
    // openid-client checks expiry; a token issued "in the future" is this check's to refuse.
    const ahead = Number(idClaims.iat) - deps.clock.now() / 1000;
    if (ahead > CLOCK_SKEW_S)
      throw new OidcFailure('oidc_clock_skew', `ID token issued ${Math.round(ahead)} s ahead`);
    let claims = idClaims;
    // Many providers put email and groups only in userinfo; ask only when the ID token lacks them.
    if (
      !(provider.emailClaim in idClaims) ||
      (provider.groupsClaim && !(provider.groupsClaim in idClaims))
    ) {
      const info = await oidc.fetchUserInfo(
        client.config,
        tokens.access_token,
        String(idClaims.sub),
      );
      claims = { ...info, ...idClaims };
    }
    const user = await accountFor(deps, ctx, provider, claims);
    const session = await startSession(deps, user, ctx);
    await deps.repos.oidc.insertSession(
      {
        sessionHash: sha256(session.token),
        providerId: provider.id,
        idToken: deps.secrets.seal(tokens.id_token),
        expiresAt: session.expiresAt,
      },
      deps.clock.now(),
    );
    await audit(
      deps,
      {
        ...ctx,
        actor: { type: 'user', id: user.id, role: user.role, label: user.email, sessionHash: '' },
      },
      'auth.login',
      { type: 'user', id: user.id },
      `Signed in as ${user.email} through ${provider.name} (OIDC)`,
    );
    return { user, session, returnTo: flow.returnTo };
  } catch (err) {
    const failure = classify(err);
    // Refusals by policy (domain, invitation…) are no guesses; tampered answers count as failures.
    if (!POLICY_REFUSALS.has(failure.code)) await recordFailure(deps, ipSubject);
    await audit(
      deps,
      ctx,
      'auth.login_failed',
      { type: 'oidc_provider', id: provider.id },
      `Failed sign-in through ${provider.name} (OIDC): ${failure.code} — ${failure.detail}`.slice(
        0,
        500,
      ),
    );
    throw failure;
  }
}
