import {
  ConfigApplyInput,
  ConfigApplyReport,
  ConfigDetachInput,
  ConfigDocument,
  ConfigDriftList,
  ConfigManagedList,
  ConfigPlan,
  ConfigPlanInput,
  ExportQuery,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatDocument } from '../../../config-as-code/format.js';
import { configJsonSchema } from '../../../config-as-code/json-schema.js';
import { applyDocument } from '../../../services/config/apply.js';
import { exportDocument } from '../../../services/config/export.js';
import { currentDrift } from '../../../services/config/drift.js';
import { detachResource, listManaged } from '../../../services/config/managed.js';
import { planDocument } from '../../../services/config/plan.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'config';

/** SPEC §9: an import's body may be up to 20 MiB. */
const IMPORT_LIMIT = 20 * 1024 * 1024;

/** Configuration as code (issue 15, ADR 28): export, the document's JSON Schema, apply. */
export function configRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/export',
    // Channel settings are an admin's (SPEC §6); secrets are references, never values.
    access: 'admin',
    tag,
    summary: 'The whole configuration as one document (JSON, or YAML with ?format=yaml)',
    description:
      'Resources without a key get one made from their name, kept so that applying the ' +
      'document here again updates them. Secrets are written as `${env:NAME}` references.',
    query: ExportQuery,
    responses: { 200: ConfigDocument },
    handler: async ({ query, reply }) => {
      const document = await exportDocument(deps);
      if (query.format === 'json') return document;
      return reply.type('application/yaml; charset=utf-8').send(formatDocument(document, 'yaml'));
    },
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/config/schema.json',
    // Editors fetch it without credentials; it describes the format, no data.
    access: 'public',
    tag,
    summary: 'The JSON Schema of configuration documents, for editors to validate and complete',
    responses: { 200: z.record(z.string(), z.unknown()) },
    handler: async () => configJsonSchema(),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/config/apply',
    access: 'admin',
    tag,
    errors: [409],
    summary: 'Apply a configuration document in one transaction (or preview it with dryRun)',
    description:
      'Creates resources whose key is new and updates those whose key exists; `create-only` ' +
      'leaves known keys alone. Managed resources missing from the document are detached, or ' +
      'deleted with `prune`. Nothing is written when anything fails.',
    body: ConfigApplyInput,
    bodyLimit: IMPORT_LIMIT,
    responses: { 200: ConfigApplyReport },
    handler: async ({ body, ctx }) => {
      const { document, ...options } = body;
      return (await applyDocument(deps, ctx, document, options)).report;
    },
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/config/plan',
    access: 'admin',
    tag,
    summary: 'What applying a document would change, property by property, with a plan token',
    description:
      'Writes nothing. Each resource is created, updated (with the properties that change; ' +
      'secrets only as changed or unchanged), unchanged, skipped, detached or deleted. `drift` ' +
      'lists managed resources edited outside the files since the last apply. Pass `token` ' +
      'as `planToken` to apply to have the apply refused (409) if the server changed since.',
    body: ConfigPlanInput,
    bodyLimit: IMPORT_LIMIT,
    responses: { 200: ConfigPlan },
    handler: async ({ body, ctx }) => {
      const { document, ...options } = body;
      return planDocument(deps, ctx, document, options);
    },
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/config/managed',
    access: 'viewer',
    tag,
    summary: 'The resources configuration files manage (read-only in the UI), by kind',
    responses: { 200: ConfigManagedList },
    handler: async () => listManaged(deps),
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/config/drift',
    // Before/after values of channels' settings too: as much an admin's as a plan is.
    access: 'admin',
    tag,
    summary:
      'Managed resources edited outside the files since the last apply (what plan calls drift)',
    description:
      'Each entry lists the changed properties, last applied → live. Secrets show only ' +
      'whether they changed. The next apply of unchanged files undoes these edits.',
    responses: { 200: ConfigDriftList },
    handler: async () => ({ drift: await currentDrift(deps.repos, deps.secrets) }),
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/config/detach',
    access: 'admin',
    tag,
    errors: [404, 409],
    summary: 'Hand one managed resource back to the UI; it keeps its key and history',
    body: ConfigDetachInput,
    responses: { 204: null },
    handler: async ({ body, ctx }) => detachResource(deps, ctx, body),
  });
}
