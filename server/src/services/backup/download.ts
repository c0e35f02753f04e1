import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { createBackup, type BackupStream } from './create.js';
import { backupFileName } from './format.js';

/**
 * A backup for download (GET /api/v1/backup): the stream, its file name, and its record once the
 * last byte left (or why it did not). An aborted download is recorded as failed.
 */
export async function downloadBackup(
  deps: ServiceDeps,
  ctx: RequestContext,
): Promise<BackupStream & { fileName: string }> {
  const started = deps.clock.now();
  const backup = await createBackup({
    backup: deps.repos.backup,
    instanceKey: deps.instanceKey,
    clock: deps.clock,
  });
  const fileName = backupFileName(backup.createdAt);
  let recorded = false;
  const record = (error: string | null) => {
    if (recorded) return;
    recorded = true;
    void deps.repos.backup
      .record({
        at: started,
        kind: 'download',
        bytes: error ? null : backup.bytes(),
        file: null,
        durationMs: deps.clock.now() - started,
        error,
      })
      .catch(() => {});
  };
  backup.stream.on('end', () => record(null));
  backup.stream.on('error', (err) => record(err.message));
  backup.stream.on('close', () => record('the download ended before the backup did'));
  await audit(deps, ctx, 'backup.download', null, `downloaded backup ${fileName}`);
  return { ...backup, fileName };
}
