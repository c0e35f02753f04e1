import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { restoreTables, type RestoreItem, type TargetState } from './restore.js';
import { openSnapshot } from './snapshot.js';

export type { Snapshot, SnapshotTable } from './snapshot.js';
export type { RestoreItem, TargetState } from './restore.js';
export { BACKUP_TABLES, EXCLUDED_TABLES, tablesOf } from './tables.js';

/** One backup made or attempted (migration 019). */
export interface BackupRunRow {
  at: number;
  kind: 'scheduled' | 'download';
  bytes: number | null;
  file: string | null;
  durationMs: number;
  error: string | null;
}

/** Backups: consistent reads of every table, restores, and the record of backups made. */
export function backupRepository(database: Database) {
  // backup_runs is this module's own table; typed here rather than in schema.ts's DB.
  const db = database.db as unknown as Kysely<any>;
  const columns = ['at', 'kind', 'bytes', 'file', 'duration_ms', 'error'];
  const toRun = (r: Record<string, unknown>): BackupRunRow => ({
    at: Number(r.at),
    kind: r.kind as BackupRunRow['kind'],
    bytes: r.bytes === null ? null : Number(r.bytes),
    file: (r.file as string | null) ?? null,
    durationMs: Number(r.duration_ms),
    error: (r.error as string | null) ?? null,
  });
  return {
    engine: database.engine,
    snapshot: () => openSnapshot(database),
    restore: (items: AsyncIterable<RestoreItem>, check: (state: TargetState) => void) =>
      restoreTables(database, items, check),

    async record(run: BackupRunRow): Promise<void> {
      await db
        .insertInto('backup_runs')
        .values({
          at: run.at,
          kind: run.kind,
          bytes: run.bytes,
          file: run.file,
          duration_ms: run.durationMs,
          error: run.error,
        })
        .execute();
    },

    /** The stored schedule (the `backups` settings group), or null when never saved. */
    async schedule(): Promise<unknown> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('name', '=', 'backups')
        .executeTakeFirst();
      return row ? (JSON.parse(row.value as string) as unknown) : null;
    },

    async saveSchedule(value: unknown, at: number): Promise<void> {
      const json = JSON.stringify(value);
      await db
        .insertInto('settings')
        .values({ name: 'backups', value: json, updated_at: at })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, updated_at: at }))
        .execute();
    },

    /** The latest successful run, and the latest failed one (of a kind, when given). */
    async last(kind?: BackupRunRow['kind']): Promise<{
      success: BackupRunRow | null;
      failure: BackupRunRow | null;
    }> {
      const latest = async (failed: boolean) => {
        let q = db.selectFrom('backup_runs').select(columns).orderBy('at', 'desc').limit(1);
        q = failed ? q.where('error', 'is not', null) : q.where('error', 'is', null);
        if (kind) q = q.where('kind', '=', kind);
        const row = await q.executeTakeFirst();
        return row ? toRun(row) : null;
      };
      return { success: await latest(false), failure: await latest(true) };
    },
  };
}

export type BackupRepository = ReturnType<typeof backupRepository>;
export { appliedMigrations, migrateRestored, migrateUpTo } from './schema-version.js';
export { migrationNames } from '../migrations/index.js';
