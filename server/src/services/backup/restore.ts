import fs from 'node:fs';
import path from 'node:path';
import type { BackupHeader } from '@pagewatch/contract';
import type { Config } from '../../config/config.js';
import {
  appliedMigrations,
  migrateRestored,
  migrateUpTo,
  migrationNames,
  type TargetState,
} from '../../db/backup/index.js';
import { openDatabase } from '../../db/database.js';
import { backupRepository } from '../../db/backup/index.js';
import { SecretBox } from '../../lib/crypto.js';
import { loadSecretKey } from '../../lib/secret-key.js';
import { keyFingerprint } from './format.js';
import { readBackupHeader, readBackupItems } from './read.js';

import { RestoreRefused } from '../../lib/restore-refused.js';

export { RestoreRefused };

export interface RestoreReport {
  header: BackupHeader;
  /** Rows restored per table, in file order. */
  tables: Map<string, number>;
  rows: number;
  /** The schema version the database is at afterwards. */
  migration: string;
}

/**
 * Restores a backup file into the database PAGEWATCH_DATABASE_URL or PAGEWATCH_DATA_DIR names,
 * with Pagewatch stopped (ADR 29): refused, with nothing written, for another instance key, a
 * newer schema, a damaged file, a running server or a target that holds monitors, channels,
 * pages or more people than the owner made at setup.
 */
export async function restoreBackup(config: Config, file: string): Promise<RestoreReport> {
  const header = await readBackupHeader(file);
  const key = instanceKey(config);
  const needed = `the key whose fingerprint is ${header.keyFingerprint}`;
  const how =
    'set PAGEWATCH_SECRET to the value the backed-up instance used, or copy its data folder’s secret.key';
  if (!key)
    throw new RestoreRefused(
      `This backup's secrets are sealed with ${needed}, and this instance has no key yet: ${how} into ${config.dataDir}.`,
    );
  if (keyFingerprint(key) !== header.keyFingerprint)
    throw new RestoreRefused(
      `This backup's secrets are sealed with ${needed}; this instance's key has fingerprint ${keyFingerprint(key)}. Restore with the backed-up instance's key: ${how} into ${config.dataDir}.`,
    );
  const known = migrationNames();
  const latest = known[known.length - 1] ?? '';
  if (!known.includes(header.migration))
    throw new RestoreRefused(
      header.migration > latest
        ? `This backup was made by a newer Pagewatch (${header.pagewatch}, schema ${header.migration}); this one knows schemas up to ${latest}. Upgrade Pagewatch, then restore.`
        : `This backup's schema ${header.migration} is unknown to this Pagewatch.`,
    );

  const database = await openDatabase(config.database, { migrate: false });
  try {
    const applied = await appliedMigrations(database);
    const current = applied[applied.length - 1];
    if (current && current > header.migration)
      throw new RestoreRefused(
        `This backup is of an older schema (${header.migration}) than this database (${current}). Restore it into a new database (an empty PAGEWATCH_DATA_DIR, or a new PostgreSQL database or PAGEWATCH_DATABASE_SCHEMA); the next start upgrades it.`,
      );
    // The rows go into the schema they were read from; later migrations then run over them.
    await migrateUpTo(database, header.migration);
    const repo = backupRepository(database);
    const tables = await repo.restore(readBackupItems(file), refuseUnlessEmpty);
    const secrets = new SecretBox(key);
    await migrateRestored(database, { seal: (plaintext) => secrets.seal(plaintext) });
    let rows = 0;
    for (const n of tables.values()) rows += n;
    return { header, tables, rows, migration: latest };
  } finally {
    await database.close();
  }
}

/** The instance key as the server would load it, without making one when there is none. */
function instanceKey(config: Config): Buffer | null {
  if (!config.secret && !fs.existsSync(path.join(config.dataDir, 'secret.key'))) return null;
  return loadSecretKey(config.secret, config.dataDir);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Empty: no monitors, results, channels, pages, windows, incidents or deliveries; one person at most. */
function refuseUnlessEmpty(state: TargetState): void {
  const live = state.liveMembers[0];
  if (live)
    throw new RestoreRefused(
      `Pagewatch is running on this database (${live.name}, last heartbeat ${Math.round(live.ageMs / 1000)} s ago). Stop every Pagewatch process first.`,
    );
  const held = state.content.map((c) => plural(c.rows, `${c.table} row`));
  if (state.users > 1) held.push(plural(state.users, 'person'));
  if (held.length > 0)
    throw new RestoreRefused(
      `This instance is not empty (${held.join(', ')}). Restore into a new instance: only the owner created at setup may exist, and it is replaced by the backup's people.`,
    );
}
