import {
  OidcLogoutResult,
  OidcProvider,
  OidcProviderIdParams,
  OidcProviderInput,
  OidcStartQuery,
  SignInOptions,
  SignInPolicy,
} from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { logout } from '../../../services/auth/logout.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { OidcFailure } from '../../../services/oidc/errors.js';
import {
  FLOW_COOKIE,
  FLOW_MS,
  finishOidc,
  safeReturnTo,
  startOidc,
} from '../../../services/oidc/flow.js';
import { providerLogoutUrl } from '../../../services/oidc/logout.js';
import { readSignInPolicy, writeSignInPolicy } from '../../../services/oidc/policy.js';
import {
  createProvider,
  listProviders,
  presentProvider,
  redirectUriFor,
  removeProvider,
  signInOptions,
  updateProvider,
} from '../../../services/oidc/providers.js';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth.js';
import type { ApiRegistry } from '../../route.js';
import { requestOrigin } from './accounts.js';

const tag = 'auth';
const settingsTag = 'settings';
const base = '/api/v1/auth/oidc';
const providersUrl = '/api/v1/settings/sign-in/providers';
// Lax, not Strict: the provider's redirect back is a cross-site top-level navigation.
const flowCookie = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: request.protocol === 'https',
  path: base,
});

function refuse(reply: FastifyReply, failure: OidcFailure) {
  return reply.redirect(`/login?oidc_error=${encodeURIComponent(failure.code)}`, 302);
}

/** OpenID Connect sign-in (issue 21, ADR 48/49): buttons, the redirect dance, providers. */
export function oidcRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  const redirectUri = (request: FastifyRequest) => redirectUriFor(deps, requestOrigin(request));

  api.add(app, {
    method: 'GET',
    url: '/api/v1/auth/sign-in-options',
    operationId: 'getSignInOptions',
    access: 'public',
    tag,
    summary: 'What the login page offers: the enabled sign-in providers and the password form',
    responses: { 200: SignInOptions },
    handler: async () => signInOptions(deps),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id/start`,
    operationId: 'startOidcSignIn',
    access: 'public',
    tag,
    summary: 'Start signing in with a provider: redirects the browser to it',
    description:
      'Sets a short-lived flow cookie and answers 302 to the provider. A refusal (provider unknown, discovery failed) redirects to `/login?oidc_error=CODE`.',
    params: OidcProviderIdParams,
    query: OidcStartQuery,
    responses: { 302: null },
    handler: async ({ params, query, request, reply }) => {
      try {
        const { flowToken, url } = await startOidc(
          deps,
          params.id,
          redirectUri(request),
          safeReturnTo(query.returnTo),
        );
        void reply.setCookie(FLOW_COOKIE, flowToken, {
          ...flowCookie(request),
          maxAge: FLOW_MS / 1000,
        });
        return reply.redirect(url, 302);
      } catch (err) {
        if (err instanceof OidcFailure) return refuse(reply, err);
        throw err;
      }
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/callback`,
    operationId: 'finishOidcSignIn',
    access: 'public',
    errors: [429],
    tag,
    summary: 'Where the provider sends the browser back: signs in and redirects into the app',
    description:
      'Checks state, nonce, PKCE and the ID token, then starts a session. A refusal redirects to `/login?oidc_error=CODE` (codes in docs/security.md).',
    responses: { 302: null },
    handler: async ({ ctx, request, reply }) => {
      const flowToken = request.cookies[FLOW_COOKIE];
      void reply.clearCookie(FLOW_COOKIE, flowCookie(request));
      const at = request.url.indexOf('?');
      try {
        const done = await finishOidc(deps, ctx, flowToken, at < 0 ? '' : request.url.slice(at));
        setSessionCookie(request, reply, done.session);
        return reply.redirect(done.returnTo, 302);
      } catch (err) {
        if (err instanceof OidcFailure) {
          request.log.info({ code: err.code, detail: err.detail }, 'OIDC sign-in refused');
          return refuse(reply, err);
        }
        throw err;
      }
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/logout`,
    operationId: 'logoutWithProvider',
    access: 'viewer',
    tag,
    summary: 'Sign out; for a session begun through a provider, also where to end its session',
    responses: { 200: OidcLogoutResult },
    handler: async ({ ctx, request, reply }) => {
      const origin = (deps.publicUrl ?? requestOrigin(request)).replace(/\/+$/, '');
      const endSessionUrl = await providerLogoutUrl(deps, ctx, `${origin}/login`);
      await logout(deps, ctx);
      clearSessionCookie(request, reply);
      return { endSessionUrl };
    },
  });

  api.add(app, {
    method: 'GET',
    url: providersUrl,
    operationId: 'listOidcProviders',
    access: 'admin',
    tag: settingsTag,
    summary: 'Sign-in providers (OpenID Connect); client secrets are never answered',
    responses: { 200: z.array(OidcProvider) },
    handler: async ({ request }) =>
      (await listProviders(deps)).map((p) => presentProvider(p, redirectUri(request))),
  });

  api.add(app, {
    method: 'POST',
    url: providersUrl,
    operationId: 'createOidcProvider',
    access: 'admin',
    tag: settingsTag,
    summary: 'Add a sign-in provider; its issuer must answer discovery',
    body: OidcProviderInput,
    responses: { 201: OidcProvider },
    handler: async ({ body, ctx, request }) =>
      presentProvider(
        await createProvider(deps, ctx, body, redirectUri(request)),
        redirectUri(request),
      ),
  });

  api.add(app, {
    method: 'PUT',
    url: `${providersUrl}/:id`,
    operationId: 'updateOidcProvider',
    access: 'admin',
    tag: settingsTag,
    summary: 'Replace a sign-in provider; an empty client secret keeps the stored one',
    params: OidcProviderIdParams,
    body: OidcProviderInput,
    responses: { 200: OidcProvider },
    handler: async ({ params, body, ctx, request }) =>
      presentProvider(
        await updateProvider(deps, ctx, params.id, body, redirectUri(request)),
        redirectUri(request),
      ),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${providersUrl}/:id`,
    operationId: 'deleteOidcProvider',
    access: 'admin',
    tag: settingsTag,
    summary: 'Remove a sign-in provider and the links of accounts to it',
    params: OidcProviderIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeProvider(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/settings/sign-in/policy',
    operationId: 'getSignInPolicy',
    access: 'admin',
    tag: settingsTag,
    summary: 'Who may sign in with a password',
    responses: { 200: SignInPolicy },
    handler: async () => readSignInPolicy(deps),
  });

  api.add(app, {
    method: 'PUT',
    url: '/api/v1/settings/sign-in/policy',
    operationId: 'updateSignInPolicy',
    access: 'owner',
    tag: settingsTag,
    summary:
      'Turn password sign-in off for everyone but the owner (the break-glass account), or on',
    body: SignInPolicy,
    responses: { 200: SignInPolicy },
    handler: async ({ body, ctx }) => writeSignInPolicy(deps, ctx, body),
  });
}
