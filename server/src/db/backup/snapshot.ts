import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database, Engine } from '../database.js';
import { backupMarker } from '../sqlite-checkpointer.js';
import { columnsOf, lastMigration, tablesOf } from './tables.js';

/** One table's rows as value arrays in `columns` order, a batch at a time. */
export interface SnapshotTable {
  name: string;
  columns: string[];
  batches(): AsyncIterable<unknown[][]>;
}

/** Every table as one moment saw it, while checks go on writing (ADR 29). */
export interface Snapshot {
  engine: Engine;
  /** The last migration applied: the schema version of what is read. */
  migration: string;
  tables: SnapshotTable[];
  close(): Promise<void>;
}

const BATCH = 1000;

/** Lets timers and requests run between batches: SQLite reads block the event loop while they run. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Opens a consistent read of the whole database. SQLite: a second, read-only connection in one
 * read transaction (WAL keeps its snapshot while the writer goes on). PostgreSQL: one pooled
 * connection in a REPEATABLE READ, READ ONLY transaction, rows fetched through a cursor.
 */
export async function openSnapshot(database: Database): Promise<Snapshot> {
  return database.engine === 'sqlite'
    ? openSqliteSnapshot(database)
    : openPostgresSnapshot(database);
}

async function openSqliteSnapshot(database: Database): Promise<Snapshot> {
  if (!database.file) throw new Error('An in-memory SQLite database cannot be backed up');
  const { default: SQLite } = await import('better-sqlite3');
  const native = new SQLite(database.file, { readonly: true, fileMustExist: true });
  const release = backupMarker(database.file);
  native.pragma('busy_timeout = 5000');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: native }) });
  try {
    native.exec('begin');
    // The snapshot starts at the first read, so every later read sees this same moment.
    const migration = await lastMigration(db);
    const tables: SnapshotTable[] = [];
    for (const name of await tablesOf(db, 'sqlite')) {
      const columns = await columnsOf(db, 'sqlite', name);
      const select = `select ${columns.map(quote).join(', ')} from ${quote(name)}`;
      tables.push({
        name,
        columns,
        async *batches() {
          const stmt = native.prepare(select).raw(true);
          let batch: unknown[][] = [];
          for (const row of stmt.iterate() as Iterable<unknown[]>) {
            batch.push(row);
            if (batch.length < BATCH) continue;
            yield batch;
            batch = [];
            await breathe();
          }
          if (batch.length > 0) yield batch;
        },
      });
    }
    if (!migration) throw new Error('The database has no migrations applied');
    return {
      engine: 'sqlite',
      migration,
      tables,
      close: async () => {
        if (native.inTransaction) native.exec('rollback');
        await db.destroy();
        release();
      },
    };
  } catch (err) {
    await db.destroy();
    release();
    throw err;
  }
}

async function openPostgresSnapshot(database: Database): Promise<Snapshot> {
  // The connection stays out of the pool until close(): the transaction lives on it.
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  let held: Promise<void> = Promise.resolve();
  const conn = await new Promise<Kysely<any>>((resolve, reject) => {
    held = database.db
      .connection()
      .execute(async (c) => {
        resolve(c as Kysely<any>);
        await done;
      })
      .catch(reject);
  });
  const close = async () => {
    await sql`rollback`.execute(conn).catch(() => {});
    release();
    await held;
  };
  try {
    await sql`begin isolation level repeatable read read only`.execute(conn);
    const migration = await lastMigration(conn);
    if (!migration) throw new Error('The database has no migrations applied');
    const tables: SnapshotTable[] = [];
    for (const name of await tablesOf(conn, 'postgres')) {
      const columns = await columnsOf(conn, 'postgres', name);
      tables.push({ name, columns, batches: () => cursorBatches(conn, name, columns) });
    }
    return { engine: 'postgres', migration, tables, close };
  } catch (err) {
    await close();
    throw err;
  }
}

let cursors = 0;

async function* cursorBatches(conn: Kysely<any>, table: string, columns: string[]) {
  const cursor = sql.id(`backup_cursor_${++cursors}`);
  const list = sql.join(columns.map((c) => sql.id(c)));
  await sql`declare ${cursor} no scroll cursor for select ${list} from ${sql.id(table)}`.execute(
    conn,
  );
  try {
    for (;;) {
      const { rows } = await sql<Record<string, unknown>>`fetch forward ${sql.raw(
        String(BATCH),
      )} from ${cursor}`.execute(conn);
      if (rows.length === 0) return;
      yield rows.map((row) => columns.map((c) => row[c]));
    }
  } finally {
    // After a failed fetch the transaction is aborted and close fails too; rollback ends both.
    await sql`close ${cursor}`.execute(conn).catch(() => {});
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
