import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../src/config/config.js';
import type { Database, DatabaseTarget } from '../../src/db/database.js';
import { encodeRow } from '../../src/services/backup/format.js';
import { readBackupHeader, readBackupItems } from '../../src/services/backup/read.js';
import { postgresUrl } from './engines.js';

export const TEST_SECRET = 'test-instance-secret-0123456789abcdef';

export interface BackupTable {
  columns: string[];
  /** Rows as JSON lines, sorted: a table's content whatever order it was read in. */
  rows: string[];
}

/** A backup file's tables, read as a restore reads them. */
export async function readBackup(file: string) {
  const header = await readBackupHeader(file);
  const tables = new Map<string, BackupTable>();
  let current: BackupTable | null = null;
  for await (const item of readBackupItems(file)) {
    if (item.kind === 'table') {
      current = { columns: item.columns, rows: [] };
      tables.set(item.name, current);
    } else if (item.kind === 'rows') current!.rows.push(...item.rows.map((r) => encodeRow(r)));
    else current!.rows.sort();
  }
  return { header, tables };
}

/** A table of a live database in the same form, for comparing it with a backup's. */
export async function dumpTable(
  database: Database,
  table: string,
  columns: string[],
): Promise<string[]> {
  const rows = await (database.db as unknown as Kysely<any>)
    .selectFrom(table)
    .select(columns)
    .execute();
  return rows.map((row) => encodeRow(columns.map((c) => row[c]))).sort();
}

/** The environment `pagewatch restore` reads to reach this target with this key. */
export function restoreEnv(target: DatabaseTarget, secret = TEST_SECRET): Record<string, string> {
  if (target.kind === 'sqlite')
    return { PAGEWATCH_DATA_DIR: path.dirname(target.file), PAGEWATCH_SECRET: secret };
  return {
    PAGEWATCH_DATABASE_URL: postgresUrl ?? target.url,
    ...(target.schema ? { PAGEWATCH_DATABASE_SCHEMA: target.schema } : {}),
    PAGEWATCH_SECRET: secret,
  };
}

/** The configuration `restoreBackup` needs for a target: where the database is and the key. */
export function restoreConfig(target: DatabaseTarget, secret: string | null = TEST_SECRET) {
  return {
    database:
      target.kind === 'sqlite'
        ? target
        : {
            kind: 'postgres' as const,
            url: target.url,
            ...(target.schema ? { schema: target.schema } : {}),
          },
    secret: secret ?? undefined,
    dataDir: target.kind === 'sqlite' ? path.dirname(target.file) : '/nonexistent',
  } as unknown as Config;
}
