import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BackupSettings } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';
import { createBackup } from './create.js';
import { BACKUP_EXTENSION, backupFileName } from './format.js';
import { backupFolder, backupSchedule, nextDue } from './schedule.js';

type Deps = Pick<ServiceDeps, 'repos' | 'clock' | 'dataDir' | 'instanceKey'>;

/** Names of the files scheduled backups write; only these are ever deleted. */
const OURS = new RegExp(`^pagewatch-[0-9TZ-]+${BACKUP_EXTENSION.replace(/\./g, '\\.')}$`);

/**
 * Writes one backup into the folder (a `.partial` file renamed once whole, so a crash never
 * leaves a file that looks complete), then deletes the oldest of ours beyond `keep`.
 */
export async function writeScheduledBackup(
  deps: Deps,
  settings: BackupSettings,
): Promise<{ file: string; bytes: number; deleted: string[] }> {
  const folder = backupFolder(deps, settings);
  const started = deps.clock.now();
  try {
    await fs.promises.mkdir(folder, { recursive: true });
    const backup = await createBackup({
      backup: deps.repos.backup,
      instanceKey: deps.instanceKey,
      clock: deps.clock,
    });
    const file = path.join(folder, backupFileName(backup.createdAt));
    const partial = `${file}.partial`;
    try {
      await pipeline(backup.stream, fs.createWriteStream(partial, { mode: 0o600 }));
      await fs.promises.rename(partial, file);
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
    const deleted = await prune(folder, settings.keep);
    const bytes = backup.bytes();
    await deps.repos.backup.record({
      at: started,
      kind: 'scheduled',
      bytes,
      file,
      durationMs: deps.clock.now() - started,
      error: null,
    });
    return { file, bytes, deleted };
  } catch (err) {
    await deps.repos.backup.record({
      at: started,
      kind: 'scheduled',
      bytes: null,
      file: null,
      durationMs: deps.clock.now() - started,
      error: (err as Error).message,
    });
    throw err;
  }
}

/** Keeps the newest `keep` of our files (their names sort by time); returns the deleted ones. */
async function prune(folder: string, keep: number): Promise<string[]> {
  const ours = (await fs.promises.readdir(folder)).filter((f) => OURS.test(f)).sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep)).map((f) => path.join(folder, f));
  for (const file of old) await fs.promises.rm(file, { force: true });
  return old;
}

/** Runs a scheduled backup when one is due; false when none was. */
export async function runDueBackup(deps: Deps): Promise<boolean> {
  const settings = await backupSchedule(deps);
  if (!settings.enabled) return false;
  const last = await deps.repos.backup.last('scheduled');
  const attempt = Math.max(last.success?.at ?? -1, last.failure?.at ?? -1);
  if (nextDue(settings, attempt < 0 ? null : attempt, deps.clock.now()) > deps.clock.now())
    return false;
  await writeScheduledBackup(deps, settings);
  return true;
}
