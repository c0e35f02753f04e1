import path from 'node:path';
import {
  BackupSettings,
  backupSettingsDefaults,
  type BackupRun,
  type BackupStatus,
} from '@pagewatch/contract';
import type { BackupRunRow } from '../../db/backup/index.js';
import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

type Deps = Pick<ServiceDeps, 'repos' | 'clock' | 'dataDir'>;

/** The schedule as saved, or the defaults (off, daily, 7 kept) when it never was. */
export async function backupSchedule(deps: Pick<ServiceDeps, 'repos'>): Promise<BackupSettings> {
  const parsed = BackupSettings.safeParse(await deps.repos.backup.schedule());
  return parsed.success ? parsed.data : backupSettingsDefaults;
}

/** Where scheduled backups go: the configured folder, or `backups/` in the data folder. */
export function backupFolder(deps: Pick<ServiceDeps, 'dataDir'>, settings: BackupSettings): string {
  return settings.folder || path.join(deps.dataDir ?? './data', 'backups');
}

const view = (r: BackupRunRow | null): BackupRun | null =>
  r && { ...r, at: new Date(r.at).toISOString() };

/** When the next scheduled backup is due: an interval after the last scheduled attempt. */
export function nextDue(settings: BackupSettings, lastAttempt: number | null, now: number): number {
  return lastAttempt === null ? now : lastAttempt + settings.intervalHours * 3_600_000;
}

export async function backupStatus(deps: Deps): Promise<BackupStatus> {
  const settings = await backupSchedule(deps);
  const last = await deps.repos.backup.last();
  const scheduled = await deps.repos.backup.last('scheduled');
  const attempt = Math.max(scheduled.success?.at ?? -1, scheduled.failure?.at ?? -1);
  const next = nextDue(settings, attempt < 0 ? null : attempt, deps.clock.now());
  return {
    settings,
    folder: backupFolder(deps, settings),
    lastSuccess: view(last.success),
    lastFailure:
      last.failure && (!last.success || last.failure.at > last.success.at)
        ? view(last.failure)
        : null,
    nextAt: settings.enabled ? new Date(next).toISOString() : null,
  };
}

export async function saveBackupSchedule(
  deps: Deps,
  ctx: RequestContext,
  settings: BackupSettings,
): Promise<BackupStatus> {
  await deps.repos.backup.saveSchedule(settings, deps.clock.now());
  const what = settings.enabled
    ? `every ${settings.intervalHours} h into ${backupFolder(deps, settings)}, keeping ${settings.keep}`
    : 'off';
  await audit(deps, ctx, 'backup.schedule', null, `scheduled backups ${what}`);
  return backupStatus(deps);
}
