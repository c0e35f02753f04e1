import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DB } from './schema.js';
import { migrateToLatest } from './migrations/index.js';

export type Engine = 'sqlite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly engine: Engine;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };

/** Opens the database and applies pending migrations before returning. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  // Only the driver in use is loaded: pg alone costs ~40 ms of start-up.
  const database =
    target.kind === 'sqlite' ? await openSqlite(target.file) : await openPostgres(target);
  try {
    await migrateToLatest(database.db, database.engine);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openSqlite(file: string): Promise<Database> {
  const { default: SQLite } = await import('better-sqlite3');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const native = new SQLite(file);
  // WAL lets the API read while the scheduler writes; NORMAL is durable across
  // process crashes, which is what a monitor needs (not across power loss).
  native.pragma('journal_mode = WAL');
  native.pragma('synchronous = NORMAL');
  native.pragma('busy_timeout = 5000');
  native.pragma('foreign_keys = ON');
  native.pragma('cache_size = -32000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: native }) });
  return {
    db,
    engine: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
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
  return {
    db,
    engine: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
