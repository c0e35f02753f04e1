import type { SqliteDatabase, SqliteStatement } from 'kysely';

interface NativeStatement extends SqliteStatement {
  /** True while an iterator over it is open: it cannot run again until that ends. */
  readonly busy: boolean;
}

interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  close(): void;
}

/**
 * Kysely prepares every statement anew; SQLite's parse and plan then cost more than many of
 * the queries themselves (a tenth of a scheduler's CPU at 100,000 monitors). The scheduler runs
 * the same few hundred statements again and again, so prepared ones are kept by their SQL. The
 * bound keeps ad-hoc statements (an IN list of a different length) from growing it: when full
 * it starts over, which costs one re-prepare per statement in use.
 */
export function cachingStatements(native: NativeDatabase, max = 1000): SqliteDatabase {
  const cache = new Map<string, NativeStatement>();
  return {
    close: () => {
      cache.clear();
      native.close();
    },
    prepare: (sql) => {
      const kept = cache.get(sql);
      if (kept && !kept.busy) return kept;
      const stmt = native.prepare(sql);
      // A kept statement mid-iteration is left to its iterator; this one runs alone.
      if (kept) return stmt;
      if (cache.size >= max) cache.clear();
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
