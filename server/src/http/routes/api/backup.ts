import { BackupSettings, BackupStatus } from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { downloadBackup } from '../../../services/backup/download.js';
import { backupStatus, saveBackupSchedule } from '../../../services/backup/schedule.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'backup';

/** Backups (ADR 29): the download, the schedule and the last runs; admins and owners (SPEC §6). */
export function backupRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/backup',
    operationId: 'downloadBackup',
    access: 'admin',
    tag,
    summary: 'Download a backup of everything, history included, as one gzip file',
    description:
      'Gzipped JSON lines read from one consistent snapshot while checks go on (docs/backup.md). ' +
      'Secrets stay sealed with the instance key; `npx pagewatch restore <file>` restores it ' +
      'into an empty instance with the same key, on SQLite or PostgreSQL.',
    produces: 'application/gzip',
    responses: { 200: null },
    handler: async ({ ctx, reply }) => {
      const backup = await downloadBackup(deps, ctx);
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${backup.fileName}"`)
        .header('cache-control', 'no-store')
        .send(backup.stream);
    },
  });

  api.add(app, {
    method: 'GET',
    url: '/api/v1/backup/status',
    operationId: 'getBackupStatus',
    access: 'admin',
    tag,
    summary: 'The backup schedule, its folder, the last backup and when the next is due',
    responses: { 200: BackupStatus },
    handler: async () => backupStatus(deps),
  });

  api.add(app, {
    method: 'PUT',
    url: '/api/v1/backup/schedule',
    operationId: 'putBackupSchedule',
    access: 'admin',
    tag,
    summary:
      'Set scheduled backups: on or off, every how many hours, into which folder, how many kept',
    body: BackupSettings,
    responses: { 200: BackupStatus },
    handler: async ({ ctx, body }) => saveBackupSchedule(deps, ctx, body),
  });
}
