import { ImportQuery, ImportReport, importLimits } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { validationFailed } from '../../../lib/errors.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { importGatus } from '../../../services/import/gatus.js';
import { importUptimeKuma } from '../../../services/import/uptime-kuma.js';
import type { ApiRegistry } from '../../route.js';

const uploadTypes = ['application/octet-stream', 'application/vnd.sqlite3', 'application/json'];

/**
 * Imports from other tools (issue 15 item 4). The file is the raw request body, whatever its
 * Content-Type: Kuma's database is binary and its backup JSON, and both go to the importer as
 * bytes, which tells them apart by their content.
 */
export async function importApiRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): Promise<void> {
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: importLimits.bytesMax },
      (_request, body, done) => done(null, body),
    );
    api.add(scoped, {
      method: 'POST',
      url: '/api/v1/import/uptime-kuma',
      operationId: 'importUptimeKuma',
      access: 'admin',
      tag: 'import',
      summary: 'Import an Uptime Kuma 2.x database or 1.x JSON backup (preview with dryRun=true)',
      description:
        'The body is the file itself. Monitors, notification channels (with their secrets, sealed), status pages, maintenance windows and 90 days of statistics are written in one transaction, or nothing is. Keys derive from Kuma ids, so a second import creates nothing twice. The report lists what was created, already there, merged or skipped, and why.',
      query: ImportQuery,
      consumes: uploadTypes,
      bodyLimit: importLimits.bytesMax,
      responses: { 200: ImportReport },
      handler: async ({ query, request, ctx }) => {
        if (!Buffer.isBuffer(request.body)) {
          const message = 'Send the file as the request body (kuma.db or a JSON backup)';
          throw validationFailed([{ path: 'file', message, code: 'kuma_no_file' }], message);
        }
        return importUptimeKuma(deps, ctx, request.body, { dryRun: query.dryRun });
      },
    });
    api.add(scoped, {
      method: 'POST',
      url: '/api/v1/import/gatus',
      operationId: 'importGatus',
      access: 'admin',
      tag: 'import',
      summary: 'Import a Gatus YAML configuration (preview with dryRun=true)',
      description:
        'The body is the YAML text, environment variables already substituted (the CLI does it; a $VAR left in the text is refused). Endpoints become monitors, conditions assertions, alerting providers channels, alerts alert rules, external endpoints push monitors — in one transaction, or nothing. Keys derive from Gatus names, so a second import creates nothing twice.',
      query: ImportQuery,
      consumes: ['application/yaml', 'text/yaml', 'text/plain', 'application/octet-stream'],
      bodyLimit: importLimits.bytesMax,
      responses: { 200: ImportReport },
      handler: async ({ query, request, ctx }) => {
        if (!Buffer.isBuffer(request.body)) {
          const message = 'Send the Gatus YAML as the request body';
          throw validationFailed([{ path: 'file', message, code: 'gatus_no_file' }], message);
        }
        return importGatus(deps, ctx, request.body, { dryRun: query.dryRun });
      },
    });
  });
}
