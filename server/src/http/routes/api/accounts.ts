import {
  EmailChangeRequest,
  EmailChangeSent,
  InvitationAccept,
  InvitationInfo,
  LinkTokenInput,
  Me,
  PasswordResetComplete,
  PasswordResetInfo,
  PasswordResetRequest,
  ProfileUpdate,
  Session,
} from '@pagewatch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptInvitation, checkInvitation } from '../../../services/accounts/invitations.js';
import {
  checkResetLink,
  completePasswordReset,
  requestPasswordReset,
} from '../../../services/accounts/password-reset.js';
import {
  confirmEmailChange,
  requestEmailChange,
  updateOwnName,
} from '../../../services/accounts/profile.js';
import { presentMe } from '../../../services/auth/presenters.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { setSessionCookie } from '../../plugins/auth.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'auth';
const base = '/api/v1/auth';

/**
 * The origin a signed-in person reached this server at, for links they have sent when
 * PAGEWATCH_PUBLIC_URL is unset. Never used for a public request (ADR 34).
 */
export const requestOrigin = (request: FastifyRequest): string =>
  `${request.protocol}://${request.host}`;

/**
 * Getting back in and joining (issue 17, ADR 34): reset links, invitation links, one's own
 * name and email. Tokens travel in request bodies, never in URLs the server logs.
 */
export function accountRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'POST',
    url: `${base}/password-reset/request`,
    operationId: 'requestPasswordReset',
    errors: [429],
    access: 'public',
    tag,
    summary: 'Mail a one-hour reset link to an address, if it has an account',
    description:
      'Answers 202 whether or not the address has an account, at once: the link is made and mailed afterwards through the system mail channel. Limited to 5 requests an hour per address and 20 per client.',
    body: PasswordResetRequest,
    responses: { 202: null },
    handler: async ({ body, ctx }) => requestPasswordReset(deps, ctx, body.email),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/password-reset/check`,
    operationId: 'checkPasswordResetLink',
    access: 'public',
    tag,
    summary: 'Which account a reset link is for; 400 with the reason when it no longer works',
    body: LinkTokenInput,
    responses: { 200: PasswordResetInfo },
    handler: async ({ body }) => checkResetLink(deps, body.token),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/password-reset`,
    operationId: 'resetPassword',
    access: 'public',
    tag,
    summary: 'Set a new password with a reset link, once; every session of the account ends',
    body: PasswordResetComplete,
    responses: { 204: null },
    handler: async ({ body, ctx }) => completePasswordReset(deps, ctx, body.token, body.password),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/invitation/check`,
    operationId: 'checkInvitation',
    access: 'public',
    tag,
    summary: 'What an invitation link offers; 400 with the reason when it no longer works',
    body: LinkTokenInput,
    responses: { 200: InvitationInfo },
    handler: async ({ body }) => checkInvitation(deps, body.token),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/invitation/accept`,
    operationId: 'acceptInvitation',
    errors: [409],
    access: 'public',
    tag,
    summary: 'Join with an invitation link: choose a name and password, and sign in',
    body: InvitationAccept,
    responses: { 201: Session },
    handler: async ({ body, ctx, request, reply }) => {
      const { user, session } = await acceptInvitation(deps, ctx, body);
      setSessionCookie(request, reply, session);
      return { user: presentMe(user), csrfToken: session.csrfToken };
    },
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/email-change/confirm`,
    operationId: 'confirmEmailChange',
    access: 'public',
    tag,
    summary: 'Confirm a new sign-in email with the link sent to it, once',
    body: LinkTokenInput,
    responses: { 200: EmailChangeSent },
    handler: async ({ body, ctx }) => confirmEmailChange(deps, ctx, body.token),
  });

  api.add(app, {
    method: 'PATCH',
    url: `${base}/me`,
    operationId: 'updateProfile',
    errors: [403],
    access: 'viewer',
    tag,
    summary: 'Change your own name',
    body: ProfileUpdate,
    responses: { 200: Me },
    handler: async ({ body, ctx }) => presentMe(await updateOwnName(deps, ctx, body.name)),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/email-change`,
    operationId: 'requestEmailChange',
    errors: [403, 503],
    access: 'viewer',
    tag,
    summary: 'Change your sign-in email: a confirmation link goes to the new address',
    body: EmailChangeRequest,
    responses: { 202: EmailChangeSent },
    handler: async ({ body, ctx, request }) =>
      requestEmailChange(deps, ctx, body.email, body.password, requestOrigin(request)),
  });
}
