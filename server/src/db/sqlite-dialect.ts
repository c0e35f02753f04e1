import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type { WriteTurns } from './write-turns.js';

/**
 * Kysely's SQLite dialect with two changes, both for several processes on one file
 * (PAGEWATCH_WORKERS, ADR 25):
 *
 * - Transactions start with BEGIN IMMEDIATE, taking the write lock up front. Every
 *   transaction here writes, and most read first (a result reads its monitor's state, then
 *   updates it). A deferred BEGIN holds a read snapshot until its first write; if another
 *   process committed in between, that write fails at once with SQLITE_BUSY ("database is
 *   locked"), which the busy timeout cannot wait out.
 * - With `turns`, a transaction or a lone write first waits for this process's turn at the
 *   write lock, given out across the machine by the primary, so the processes never wait at
 *   the lock itself (better-sqlite3 would wait there with the event loop blocked).
 * - Taking the write lock never waits long inside SQLite: the checkpointer thread's TRUNCATE
 *   holds the lock while it copies and syncs, which on a busy disk took over 5 s and failed a
 *   monitor's creation with "database is locked" (and blocked the event loop all that time).
 *   BEGIN IMMEDIATE and lone writes try with a short busy timeout and wait between tries on
 *   the event loop, for up to WRITE_LOCK_WAIT_MS.
 */
export class PagewatchSqliteDialect implements Dialect {
  constructor(private readonly settings: { database: SqliteDatabase; turns?: WriteTurns | null }) {}

  createDriver(): Driver {
    return new TurnTakingDriver(this.settings.database, this.settings.turns ?? null);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

const none = () => {};

/** How long a write waits for SQLite's write lock, in all, before it fails. */
export const WRITE_LOCK_WAIT_MS = 30_000;
/** The busy timeout of one try at the write lock, spent blocking the event loop. */
const TRY_BUSY_MS = 10;
/** The busy timeout of everything else (reads in WAL mode practically never wait). */
export const BUSY_TIMEOUT_MS = 5000;

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

type PreparedStatement = ReturnType<SqliteDatabase['prepare']> & { readonly readonly?: boolean };

class TurnTakingDriver implements Driver {
  private readonly connection: Connection;
  /** The one connection, held by one query or transaction at a time (as kysely's driver). */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: SqliteDatabase,
    turns: WriteTurns | null,
  ) {
    this.connection = new Connection(db, turns);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release = none;
    const previous = this.queue;
    this.queue = new Promise((resolve) => (release = resolve));
    await previous;
    this.connection.releaseHold = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Connection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Connection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Connection).end('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as Connection;
    const release = c.releaseHold;
    c.releaseHold = none;
    release();
  }

  async destroy(): Promise<void> {
    this.db.close();
  }
}

class Connection implements DatabaseConnection {
  releaseHold: () => void = none;
  /** The write turn this connection's transaction holds; none outside one. */
  private turn: (() => void) | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly turns: WriteTurns | null,
  ) {}

  async begin(): Promise<void> {
    this.turn = this.turns ? await this.turns.acquire() : none;
    try {
      await this.whenLockFree(() => this.run(CompiledQuery.raw('begin immediate')));
    } catch (err) {
      this.dropTurn();
      throw err;
    }
  }

  async end(how: 'commit' | 'rollback'): Promise<void> {
    try {
      this.run(CompiledQuery.raw(how));
    } finally {
      this.dropTurn();
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.db.prepare(query.sql) as PreparedStatement;
    // A lone write (outside a transaction) takes a turn of its own; reads never need one (WAL).
    if (this.turns && this.turn === null && stmt.readonly !== true) {
      const release = await this.turns.acquire();
      try {
        // Prepared again: while this waited for its turn, another query may have iterated it.
        return await this.whenLockFree(() => this.run(query));
      } finally {
        release();
      }
    }
    if (this.turn === null && stmt.readonly !== true) {
      return this.whenLockFree(() => this.run(query));
    }
    return this.run(query, stmt);
  }

  /**
   * Runs `write`, which takes the write lock, with a short busy timeout; while another
   * connection (the checkpointer, another process) holds the lock, waits on the event loop
   * and tries again, backing off to 50 ms, for up to WRITE_LOCK_WAIT_MS.
   */
  private async whenLockFree<T>(write: () => T): Promise<T> {
    const started = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      this.busyTimeout(TRY_BUSY_MS);
      try {
        return write();
      } catch (err) {
        if (!isBusy(err) || Date.now() - started >= WRITE_LOCK_WAIT_MS) throw err;
      } finally {
        this.busyTimeout(BUSY_TIMEOUT_MS);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** attempt, 50)));
    }
  }

  private busyTimeout(ms: number): void {
    this.db.prepare(`pragma busy_timeout = ${ms}`).all([]);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.db.prepare(query.sql);
    for (const row of stmt.iterate(query.parameters)) yield { rows: [row as R] };
  }

  private run<R>(query: CompiledQuery, prepared?: PreparedStatement): QueryResult<R> {
    const stmt = prepared ?? this.db.prepare(query.sql);
    if (stmt.reader) return { rows: stmt.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(query.parameters);
    return {
      numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
      insertId:
        lastInsertRowid === undefined || lastInsertRowid === null
          ? undefined
          : BigInt(lastInsertRowid),
      rows: [],
    };
  }

  private dropTurn(): void {
    const release = this.turn;
    this.turn = null;
    release?.();
  }
}
