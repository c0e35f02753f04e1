import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { Engine } from './database.js';

/**
 * SQL written once for the statements that run for every check result (ADR 26).
 *
 * Kysely builds, freezes and compiles a tree for each query: for the four statements a result
 * costs, that was about 45 % of the result writer's CPU (bench/cases/result-writes.mjs), and on
 * SQLite with workers one process writes every result of the machine. These statements keep
 * kysely's connection, transaction and driver; only the building is skipped. Each is made once
 * per shape (engine, variant, row count) and kept, so SQLite's statement cache (keyed by the
 * SQL string) also sees the very same string object again.
 */
export class HotStatements {
  private readonly made = new Map<string, string>();

  constructor(readonly engine: Engine) {}

  /** The SQL for `key`, made by `build` the first time; `build` gets a placeholder maker. */
  sql(key: string, build: (param: Placeholders) => string): string {
    let text = this.made.get(key);
    if (text === undefined) {
      text = build(placeholders(this.engine));
      this.made.set(key, text);
    }
    return text;
  }

  /** Runs `sql` with `parameters` on `db` (a transaction or the database). */
  run<R>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    return db.executeQuery<R>(CompiledQuery.raw(sql, parameters as unknown[]));
  }
}

/** Hands out the next placeholder: `?` on SQLite, `$1`, `$2`, … on PostgreSQL. */
export type Placeholders = () => string;

function placeholders(engine: Engine): Placeholders {
  if (engine === 'sqlite') return () => '?';
  let n = 0;
  return () => `$${++n}`;
}

/** `(?, ?, ?), (?, ?, ?)`: `rows` tuples of `width` placeholders. */
export function tuples(param: Placeholders, rows: number, width: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const row: string[] = [];
    for (let c = 0; c < width; c += 1) row.push(param());
    out.push(`(${row.join(', ')})`);
  }
  return out.join(', ');
}

const perEngine: Record<Engine, HotStatements> = {
  sqlite: new HotStatements('sqlite'),
  postgres: new HotStatements('postgres'),
};

/** The statements of an engine: the SQL depends on nothing else, so one set serves all. */
export const hotStatements = (engine: Engine): HotStatements => perEngine[engine];

/**
 * Splits `items` into pieces whose sizes are powers of two, largest first (500 → 256, 128,
 * 64, 32, 16, 4): a statement over n rows then comes in at most log₂(max) + 1 shapes, so the
 * prepared statements stay few however the batches vary.
 */
export function pieces<T>(items: readonly T[], max = 256): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (let size = max; size >= 1 && i < items.length; size >>= 1) {
    while (items.length - i >= size) {
      out.push(items.slice(i, i + size));
      i += size;
    }
  }
  return out;
}

/**
 * PostgreSQL's rows as columns: `unnest($1::bigint[], $2::text[], …)` over one array per
 * column, so a statement over any number of rows is one short text with one parameter a
 * column. A batch of 500 results was six statements per table over up to 3,840 parameters
 * each, which PostgreSQL parsed and planned anew every time: most of the writer's wall time
 * (ADR 26).
 */
export function unnestOf(types: readonly string[]): string {
  return `unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
}

/** `rows`' values as one array a column, for `unnestOf`; `width` values a row. */
export function columnsOf(rows: readonly (readonly unknown[])[], width: number): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => new Array(rows.length));
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c += 1) columns[c]![r] = row[c];
  });
  return columns;
}
