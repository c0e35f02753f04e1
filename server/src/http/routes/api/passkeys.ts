import {
  LoginResult,
  Passkey,
  PasskeyIdParams,
  PasskeyList,
  PasskeyRegistered,
  PasskeyRegistration,
  PasskeyRename,
  PasskeySecondFactor,
  PasskeySecondFactorStart,
  PasskeySignIn,
  Session,
  WebAuthnOptions,
} from '@pagewatch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentMe } from '../../../services/auth/presenters.js';
import { rotateSession } from '../../../services/auth/sessions.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { CeremonyContext } from '../../../services/passkeys/ceremony.js';
import { listPasskeys, removePasskey, renamePasskey } from '../../../services/passkeys/manage.js';
import { registerPasskey, registrationOptions } from '../../../services/passkeys/register.js';
import {
  secondFactorOptions,
  secondFactorWithPasskey,
  signInOptions,
  signInWithPasskey,
} from '../../../services/passkeys/sign-in.js';
import { setSessionCookie } from '../../plugins/auth.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'auth';
const base = '/api/v1/auth/passkeys';

// The origin the browser used: the relying party when PAGEWATCH_PUBLIC_URL is not set (ADR 50).
const ceremony = (request: FastifyRequest): CeremonyContext => ({
  ctx: request.ctx,
  requestOrigin: `${request.protocol}://${request.host}`,
});

const ceremonyNote =
  'The options are WebAuthn JSON for `@simplewebauthn/browser`; the challenge in them is stored on the server, used once and lapses after two minutes.';

/** Passkeys: a person's own list, registration, and both ways of signing in with one (ADR 50). */
export function passkeyRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    operationId: 'listPasskeys',
    access: 'viewer',
    duringEnrolment: true,
    tag,
    summary: 'Your passkeys: names, when added and last used',
    responses: { 200: PasskeyList },
    handler: async ({ ctx }) => ({ passkeys: await listPasskeys(deps, ctx) }),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/register/options`,
    operationId: 'startPasskeyRegistration',
    errors: [409],
    access: 'viewer',
    duringEnrolment: true,
    tag,
    summary: 'Start adding a passkey: options for navigator.credentials.create()',
    description: ceremonyNote,
    responses: { 200: WebAuthnOptions },
    handler: async ({ request }) => registrationOptions(deps, ceremony(request)),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/register`,
    operationId: 'registerPasskey',
    errors: [401, 409],
    access: 'viewer',
    duringEnrolment: true,
    tag,
    summary: 'Finish adding a passkey; the first one may answer recovery codes, shown once',
    description: 'Your other sessions are signed out and this one gets a fresh id.',
    body: PasskeyRegistration,
    responses: { 201: PasskeyRegistered },
    handler: async ({ body, request, reply }) => {
      const out = await registerPasskey(deps, ceremony(request), body);
      const fresh = await rotateSession(deps, request.ctx);
      if (fresh) setSessionCookie(request, reply, fresh);
      return out;
    },
  });

  api.add(app, {
    method: 'PATCH',
    url: `${base}/:id`,
    operationId: 'renamePasskey',
    access: 'viewer',
    tag,
    summary: 'Rename one of your passkeys',
    params: PasskeyIdParams,
    body: PasskeyRename,
    responses: { 200: Passkey },
    handler: async ({ params, body, ctx }) => renamePasskey(deps, ctx, params.id, body.name),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    operationId: 'removePasskey',
    access: 'viewer',
    tag,
    summary: 'Remove one of your passkeys',
    params: PasskeyIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removePasskey(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/sign-in/options`,
    operationId: 'startPasskeySignIn',
    errors: [429],
    access: 'public',
    tag,
    summary: 'Start a passwordless sign-in: options for navigator.credentials.get()',
    description: `${ceremonyNote} No account is named: the browser offers the passkeys it holds for this site.`,
    responses: { 200: WebAuthnOptions },
    handler: async ({ request }) => signInOptions(deps, ceremony(request)),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/sign-in`,
    operationId: 'signInWithPasskey',
    errors: [401, 429],
    access: 'public',
    tag,
    summary: 'Sign in with a passkey, without a password',
    body: PasskeySignIn,
    responses: { 200: Session },
    handler: async ({ body, request, reply }) => {
      const { user, session } = await signInWithPasskey(deps, ceremony(request), body.response);
      setSessionCookie(request, reply, session);
      return { user: presentMe(user), csrfToken: session.csrfToken };
    },
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/auth/login/passkey/options',
    operationId: 'startPasskeySecondFactor',
    errors: [401, 429],
    access: 'public',
    tag,
    summary: 'Second step of a password sign-in with a passkey: options for this account',
    description: `${ceremonyNote} Takes the challenge the password step answered (\`${LoginResult.options[1].shape.status.value}\` with \`passkey\` among its methods).`,
    body: PasskeySecondFactorStart,
    responses: { 200: WebAuthnOptions },
    handler: async ({ body, request }) =>
      secondFactorOptions(deps, ceremony(request), body.challenge),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/auth/login/passkey',
    operationId: 'loginWithPasskey',
    errors: [401, 429],
    access: 'public',
    tag,
    summary: 'Finish a password sign-in with a passkey instead of a code',
    body: PasskeySecondFactor,
    responses: { 200: Session },
    handler: async ({ body, request, reply }) => {
      const { user, session } = await secondFactorWithPasskey(deps, ceremony(request), body);
      setSessionCookie(request, reply, session);
      return { user: presentMe(user), csrfToken: session.csrfToken };
    },
  });
}
