import {
  AuthStatus,
  LoginInput,
  LoginResult,
  LoginTotpInput,
  PasswordChange,
  RecoveryCodes,
  Session,
  SetupInput,
  TotpConfirm,
  TotpDisable,
  TotpEnrolment,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../../../lib/errors.js';
import { login, loginTotp } from '../../../services/auth/login.js';
import { logout, logoutEverywhere } from '../../../services/auth/logout.js';
import { changePassword } from '../../../services/auth/password.js';
import { presentMe } from '../../../services/auth/presenters.js';
import { csrfTokenFor, resolveSession, rotateSession } from '../../../services/auth/sessions.js';
import { setupOwner, setupRequired, setupTokenRequired } from '../../../services/auth/setup.js';
import { confirmTotp, disableTotp, startTotpEnrolment } from '../../../services/auth/totp-enrol.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../plugins/auth.js';
import type { ApiRegistry } from '../../route.js';
import { accountRoutes } from './accounts.js';
import { mustEnrolSecondFactor } from '../../../services/auth/second-factor-policy.js';
import { passkeyRoutes } from './passkeys.js';
import { resetByMailAvailable } from '../../../services/accounts/password-reset.js';

const tag = 'auth';
// Sign-out also wipes what this browser kept of the signed-in app (cached answers, storage).
const CLEAR_SITE_DATA = '"cache", "cookies", "storage"';
const base = '/api/v1/auth';

/** Sign-in, sessions and two-factor (SPEC §7 `auth`). */
export function authRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: `${base}/status`,
    operationId: 'getAuthStatus',
    access: 'public',
    tag,
    summary:
      'Whether the first-run setup is still to be done, and whether this browser is signed in',
    responses: { 200: AuthStatus },
    handler: async ({ ctx, request }) => {
      const required = await setupRequired(deps);
      // Answered here, always 200: a signed-out browser then never asks /auth/me for a 401.
      const token = sessionTokenOf(request);
      const signedIn = token ? (await resolveSession(deps, token)) !== null : false;
      return {
        setupRequired: required,
        setupTokenRequired: required && setupTokenRequired(ctx),
        signedIn,
        passwordResetByMail: !required && (await resetByMailAvailable(deps)),
      };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/setup`,
    operationId: 'setupOwner',
    errors: [403],
    access: 'public',
    tag,
    summary: 'Create the owner account on first run (once) and sign in',
    body: SetupInput,
    responses: { 201: Session },
    handler: async ({ body, ctx, request, reply }) => {
      const { user, session } = await setupOwner(deps, ctx, body);
      setSessionCookie(request, reply, session);
      return { user: presentMe(user), csrfToken: session.csrfToken };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/login`,
    operationId: 'login',
    errors: [401, 429],
    access: 'public',
    tag,
    summary: 'Sign in with email and password; may ask for a two-factor code next',
    body: LoginInput,
    responses: { 200: LoginResult },
    handler: async ({ body, ctx, request, reply }) => {
      const outcome = await login(deps, ctx, body);
      if (outcome.status === 'totp_required') return outcome;
      setSessionCookie(request, reply, outcome.session);
      return {
        status: 'signed_in',
        session: {
          user: presentMe(outcome.user, await mustEnrolSecondFactor(deps, outcome.user)),
          csrfToken: outcome.session.csrfToken,
        },
      };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/login/totp`,
    operationId: 'loginWithTotp',
    errors: [401, 429],
    access: 'public',
    tag,
    summary: 'Finish signing in with a two-factor or recovery code',
    body: LoginTotpInput,
    responses: { 200: Session },
    handler: async ({ body, ctx, request, reply }) => {
      const { user, session } = await loginTotp(deps, ctx, body);
      setSessionCookie(request, reply, session);
      return { user: presentMe(user), csrfToken: session.csrfToken };
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/me`,
    operationId: 'getSession',
    errors: [403],
    access: 'viewer',
    duringEnrolment: true,
    tag,
    summary: 'The signed-in person and the CSRF token for this session',
    responses: { 200: Session },
    handler: async ({ ctx }) => {
      if (ctx.actor.type !== 'user')
        throw forbidden('API keys have no session; use the API directly');
      const user = await deps.repos.users.findById(ctx.actor.id);
      if (!user) throw notFound('Account');
      return {
        user: presentMe(
          user,
          ctx.actor.secondFactor !== true && (await mustEnrolSecondFactor(deps, user)),
        ),
        csrfToken: csrfTokenFor(deps, ctx.actor.sessionHash),
      };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/logout`,
    operationId: 'logout',
    duringEnrolment: true,
    access: 'viewer',
    tag,
    summary: 'Sign out of this session',
    responses: { 204: null },
    handler: async ({ ctx, request, reply }) => {
      await logout(deps, ctx);
      clearSessionCookie(request, reply);
      void reply.header('clear-site-data', CLEAR_SITE_DATA);
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/logout-all`,
    operationId: 'logoutEverywhere',
    duringEnrolment: true,
    access: 'viewer',
    tag,
    summary: 'Sign out everywhere: end every session of this person',
    responses: { 204: null },
    handler: async ({ ctx, request, reply }) => {
      await logoutEverywhere(deps, ctx);
      clearSessionCookie(request, reply);
      void reply.header('clear-site-data', CLEAR_SITE_DATA);
    },
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/password`,
    operationId: 'changePassword',
    access: 'viewer',
    tag,
    summary: 'Change your password; your other sessions are signed out',
    body: PasswordChange,
    responses: { 204: null },
    handler: async ({ body, ctx, request, reply }) => {
      await changePassword(deps, ctx, body.current, body.next);
      const fresh = await rotateSession(deps, ctx);
      if (fresh) setSessionCookie(request, reply, fresh);
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/totp/enrol`,
    operationId: 'startTotpEnrolment',
    duringEnrolment: true,
    errors: [409],
    access: 'viewer',
    tag,
    summary: 'Start two-factor enrolment: a secret, its otpauth URL and QR code',
    responses: { 200: TotpEnrolment },
    handler: async ({ ctx }) => startTotpEnrolment(deps, ctx),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/totp/confirm`,
    operationId: 'confirmTotp',
    duringEnrolment: true,
    errors: [409],
    access: 'viewer',
    tag,
    summary: 'Confirm enrolment with a code; answers the recovery codes, shown once',
    body: TotpConfirm,
    responses: { 200: RecoveryCodes },
    handler: async ({ body, ctx, request, reply }) => {
      const recoveryCodes = await confirmTotp(deps, ctx, body.code);
      const fresh = await rotateSession(deps, ctx);
      if (fresh) setSessionCookie(request, reply, fresh);
      return { recoveryCodes };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/totp/disable`,
    operationId: 'disableTotp',
    errors: [409],
    access: 'viewer',
    tag,
    summary: 'Turn two-factor off with your password and a code',
    body: TotpDisable,
    responses: { 204: null },
    handler: async ({ body, ctx }) => disableTotp(deps, ctx, body.password, body.code),
  });

  accountRoutes(app, api, deps);
  passkeyRoutes(app, api, deps);
}
