import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { DB } from './schema.js';
import { migrateToLatest, type MigrateOptions } from './migrations/index.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { BUSY_TIMEOUT_MS, PagewatchSqliteDialect } from './sqlite-dialect.js';
import { cachingStatements } from './sqlite-statement-cache.js';
import type { WriteTurns } from './write-turns.js';

export type Engine = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly engine: Engine;
  /** The SQLite file (backups open a second connection on it); null in memory and on PostgreSQL. */
  readonly file: string | null;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };

/** Opens the database and applies pending migrations before returning. */
export async function openDatabase(
  target: DatabaseTarget,
  options: MigrateOptions & {
    /** SQLite's write lock in turns with the other processes of the machine (ADR 25). */
    turns?: WriteTurns | null;
    /** False leaves the schema as found (a restore migrates in its own steps, ADR 29). */
    migrate?: boolean;
  } = {},
): Promise<Database> {
  // Only the driver in use is loaded: pg alone costs ~40 ms of start-up.
  const database =
    target.kind === 'sqlite'
      ? await openSqlite(target.file, options.turns ?? null)
      : await openPostgres(target);
  if (options.migrate === false) return database;
  try {
    await migrateToLatest(database.db, database.engine, options);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openSqlite(file: string, turns: WriteTurns | null): Promise<Database> {
  const { default: SQLite } = await import('better-sqlite3');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const native = new SQLite(file);
  // WAL lets the API read while the scheduler writes; NORMAL is durable across
  // process crashes, which is what a monitor needs (not across power loss).
  native.pragma('journal_mode = WAL');
  native.pragma('synchronous = NORMAL');
  native.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  native.pragma('foreign_keys = ON');
  native.pragma('cache_size = -32000');
  const db = new Kysely<DB>({
    dialect: new PagewatchSqliteDialect({ database: cachingStatements(native), turns }),
  });
  if (file === ':memory:') {
    return {
      db,
      engine: 'sqlite',
      file: null,
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  // Checkpoints (copy the WAL into the database, fsync) run in a worker thread, not here.
  native.pragma('wal_autocheckpoint = 0');
  const checkpointer = startCheckpointer(file, (message) => {
    // Without checkpoints the WAL grows without bound: fall back to doing them here.
    native.pragma('wal_autocheckpoint = 1000');
    process.emitWarning(`SQLite checkpoints in the background failed: ${message}`);
  });
  return {
    db,
    engine: 'sqlite',
    file,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await checkpointer.stop();
      // Fold the WAL back in so the file is whole on its own (backups copy one file).
      native.pragma('wal_checkpoint(TRUNCATE)');
      await db.destroy();
    },
  };
}

async function openPostgres(target: { url: string; schema?: string }): Promise<Database> {
  const { default: pg } = await import('pg');
  // int8 (COUNT, SUM, bigint columns) would otherwise arrive as strings.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    types,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // PAGEWATCH_DATABASE_SCHEMA names a schema of its own; it is made on first start.
  if (target.schema) await sql`create schema if not exists ${sql.id(target.schema)}`.execute(db);
  return {
    db,
    engine: 'postgres',
    file: null,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
