import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyInput,
  AuditPage,
  AuditQuery,
  Invitation,
  InvitationCreate,
  InvitationIdParams,
  InvitationSent,
  PasswordReset,
  Person,
  User,
  UserCreate,
  UserIdParams,
  UserUpdate,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../services/api-keys/manage.js';
import { listAudit } from '../../../services/audit/list.js';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  createInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
} from '../../../services/accounts/invitations.js';
import {
  createUser,
  deleteUser,
  listPeople,
  listUsers,
  resetUserPassword,
  updateUser,
} from '../../../services/users/manage.js';
import type { ApiRegistry } from '../../route.js';
import { requestOrigin } from './accounts.js';

/** People, their API keys and the audit log (SPEC §6: admins and owners manage others). */
export function userRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/users',
    access: 'admin',
    tag: 'users',
    summary: 'Every account with its role',
    responses: { 200: z.object({ items: z.array(User) }) },
    handler: async () => ({ items: await listUsers(deps) }),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/people',
    access: 'editor',
    tag: 'users',
    summary: 'Active accounts by name and address, for picking report recipients',
    responses: { 200: z.object({ items: z.array(Person) }) },
    handler: async () => ({ items: await listPeople(deps) }),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/users',
    errors: [409],
    access: 'admin',
    tag: 'users',
    summary: 'Create an account with a role up to your own',
    body: UserCreate,
    responses: { 201: User },
    handler: async ({ body, ctx }) => createUser(deps, ctx, body),
  });

  api.add(app, {
    method: 'PATCH',
    url: '/api/v1/users/:id',
    errors: [409],
    access: 'admin',
    tag: 'users',
    summary: 'Rename, change the role of, disable or enable an account',
    params: UserIdParams,
    body: UserUpdate,
    responses: { 200: User },
    handler: async ({ params, body, ctx }) => updateUser(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/users/:id/password',
    operationId: 'resetUserPassword',
    access: 'admin',
    tag: 'users',
    summary: 'Set a new password for someone; they are signed out everywhere',
    params: UserIdParams,
    body: PasswordReset,
    responses: { 204: null },
    handler: async ({ params, body, ctx }) =>
      resetUserPassword(deps, ctx, params.id, body.password),
  });

  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/users/:id',
    operationId: 'deleteUser',
    errors: [409],
    access: 'admin',
    tag: 'users',
    summary: 'Delete an account; its audit entries stay, under its name',
    description:
      'Not oneself, and not the only owner. Sessions, API keys and open links of the account end with it.',
    params: UserIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => deleteUser(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/invitations',
    operationId: 'listInvitations',
    access: 'admin',
    tag: 'users',
    summary: 'Invitations not yet accepted or revoked (expired ones flagged)',
    responses: { 200: z.object({ items: z.array(Invitation) }) },
    handler: async () => ({ items: await listInvitations(deps) }),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/invitations',
    operationId: 'createInvitation',
    errors: [409],
    access: 'admin',
    tag: 'users',
    summary: 'Invite an address with a role up to your own; the link is mailed and answered once',
    body: InvitationCreate,
    responses: { 201: InvitationSent },
    handler: async ({ body, ctx, request }) =>
      createInvitation(deps, ctx, body, requestOrigin(request)),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/invitations/:id/resend',
    operationId: 'resendInvitation',
    access: 'admin',
    tag: 'users',
    summary: 'Send an invitation again with a new link valid 7 days; the old link stops working',
    params: InvitationIdParams,
    responses: { 200: InvitationSent },
    handler: async ({ params, ctx, request }) =>
      resendInvitation(deps, ctx, params.id, requestOrigin(request)),
  });

  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/invitations/:id',
    operationId: 'revokeInvitation',
    access: 'admin',
    tag: 'users',
    summary: 'Revoke an invitation: its link stops working',
    params: InvitationIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => revokeInvitation(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/api-keys',
    access: 'viewer',
    tag: 'api-keys',
    summary: 'Your API keys (every key, for admins)',
    responses: { 200: z.object({ items: z.array(ApiKey) }) },
    handler: async ({ ctx }) => ({ items: await listApiKeys(deps, ctx) }),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/api-keys',
    access: 'viewer',
    tag: 'api-keys',
    summary: 'Create an API key with a role up to your own; the key is shown once',
    body: ApiKeyInput,
    responses: { 201: ApiKeyCreated },
    handler: async ({ body, ctx }) => createApiKey(deps, ctx, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/api-keys/:id',
    operationId: 'revokeApiKey',
    access: 'viewer',
    tag: 'api-keys',
    summary: 'Revoke an API key (your own, or any for admins)',
    params: UserIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => revokeApiKey(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/audit',
    operationId: 'listAuditEvents',
    access: 'admin',
    tag: 'audit',
    summary: 'The audit log, newest first; by person, action or area (`monitor.*`) and time',
    query: AuditQuery,
    responses: { 200: AuditPage },
    handler: async ({ query }) => listAudit(deps, query),
  });
}
