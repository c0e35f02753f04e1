import {
  ContactMethod,
  ContactMethodCreated,
  ContactMethodIdParams,
  ContactMethodInput,
  ContactMethodList,
  ContactMethodVerifyInput,
  TagPolicyList,
  UserContactMethodsParams,
  UserQuietHours,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  addContactMethod,
  listContactMethods,
  removeContactMethod,
  selfOf,
} from '../../../services/contact-methods/manage.js';
import { myQuietHours, setMyQuietHours } from '../../../services/contact-methods/quiet-hours.js';
import { resendCode, verifyContactMethod } from '../../../services/contact-methods/verify.js';
import { listTagPolicies, setTagPolicies } from '../../../services/escalation/tag-policies.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'escalation';
const mine = '/api/v1/me/contact-methods';

/**
 * People as escalation targets (ADR 60): everyone manages their own contact methods and quiet
 * hours; admins see anyone's methods (secrets never leave the server); tags name policies.
 */
export function contactMethodRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  api.add(app, {
    method: 'GET',
    url: mine,
    access: 'viewer',
    tag,
    summary: 'Your contact methods (secrets are never returned)',
    responses: { 200: ContactMethodList },
    handler: async ({ ctx }) => listContactMethods(deps, selfOf(ctx)),
  });
  api.add(app, {
    method: 'POST',
    url: mine,
    access: 'viewer',
    tag,
    summary: 'Add a contact method; a 6-digit code is sent through it at once',
    body: ContactMethodInput,
    responses: { 201: ContactMethodCreated },
    handler: async ({ body, ctx, reply }) => {
      const created = await addContactMethod(deps, ctx, body);
      void reply.code(201);
      return created;
    },
  });
  api.add(app, {
    method: 'POST',
    url: `${mine}/:id/send-code`,
    access: 'viewer',
    tag,
    summary: 'Send a new verification code through the contact method',
    params: ContactMethodIdParams,
    responses: { 200: ContactMethodCreated },
    handler: async ({ params, ctx }) => resendCode(deps, ctx, params.id),
  });
  api.add(app, {
    method: 'POST',
    url: `${mine}/:id/verify`,
    access: 'viewer',
    tag,
    summary: 'Verify the contact method with the code from its test message',
    params: ContactMethodIdParams,
    body: ContactMethodVerifyInput,
    responses: { 200: ContactMethod },
    handler: async ({ params, body, ctx }) => verifyContactMethod(deps, ctx, params.id, body.code),
  });
  api.add(app, {
    method: 'DELETE',
    url: `${mine}/:id`,
    access: 'viewer',
    tag,
    summary: 'Remove one of your contact methods',
    params: ContactMethodIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx, reply }) => {
      await removeContactMethod(deps, ctx, params.id);
      void reply.code(204);
    },
  });
  api.add(app, {
    method: 'GET',
    url: '/api/v1/users/:userId/contact-methods',
    access: 'admin',
    tag,
    summary: 'A person’s contact methods, for admins (secrets are never returned)',
    params: UserContactMethodsParams,
    responses: { 200: ContactMethodList },
    handler: async ({ params }) => listContactMethods(deps, params.userId),
  });
  api.add(app, {
    method: 'GET',
    url: '/api/v1/me/quiet-hours',
    access: 'viewer',
    tag,
    summary: 'Your quiet hours: warnings to you wait until they end',
    responses: { 200: UserQuietHours },
    handler: async ({ ctx }) => myQuietHours(deps, ctx),
  });
  api.add(app, {
    method: 'PUT',
    url: '/api/v1/me/quiet-hours',
    access: 'viewer',
    tag,
    summary: 'Set your quiet hours (critical alerts always go through)',
    body: UserQuietHours,
    responses: { 200: UserQuietHours },
    handler: async ({ body, ctx }) => setMyQuietHours(deps, ctx, body),
  });
  api.add(app, {
    method: 'GET',
    url: '/api/v1/escalation-tag-policies',
    access: 'viewer',
    tag,
    summary: 'Which escalation policy monitors with each tag use',
    responses: { 200: TagPolicyList },
    handler: async () => listTagPolicies(deps),
  });
  api.add(app, {
    method: 'PUT',
    url: '/api/v1/escalation-tag-policies',
    access: 'editor',
    tag,
    summary: 'Replace which policy each tag uses (a monitor’s own policy wins)',
    body: TagPolicyList,
    responses: { 200: TagPolicyList },
    handler: async ({ body, ctx }) => setTagPolicies(deps, ctx, body),
  });
}
