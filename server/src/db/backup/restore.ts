import { sql, type Kysely } from 'kysely';
import type { Database, Engine } from '../database.js';
import { RestoreRefused } from '../../lib/restore-refused.js';
import { dbNowMs } from '../dialect.js';
import { columnsOf, CONTENT_TABLES, tablesOf } from './tables.js';

/** What a restore reads from a backup file, in file order. */
export type RestoreItem =
  | { kind: 'table'; name: string; columns: string[] }
  | { kind: 'rows'; rows: unknown[][] }
  | { kind: 'end'; name: string; rows: number };

/** What the target holds before a restore, for the "empty instance" rule (ADR 29). */
export interface TargetState {
  /** Content tables (monitors, channels, pages…) with rows, and how many. */
  content: { table: string; rows: number }[];
  users: number;
  /** Processes whose heartbeat is younger than a minute: Pagewatch runs on this database. */
  liveMembers: { name: string; ageMs: number }[];
}

/** Largest bound parameters per statement, under both engines' limits (SQLite 32,766). */
const MAX_PARAMS = 30_000;

/**
 * Replaces every backed-up table's rows with the file's, in one transaction: `check` sees the
 * target first and throws to refuse; any error after it rolls everything back. PostgreSQL
 * sequences are moved past the restored ids, so new rows do not collide with them.
 */
export async function restoreTables(
  database: Database,
  items: AsyncIterable<RestoreItem>,
  check: (state: TargetState) => void,
): Promise<Map<string, number>> {
  const { engine } = database;
  return database.db.transaction().execute(async (trx) => {
    const db = trx as Kysely<any>;
    check(await targetState(db, engine));
    const tables = await tablesOf(db, engine);
    // Children first: the setup owner's sessions and keys go before the owner.
    for (const table of [...tables].reverse()) await db.deleteFrom(table).execute();
    const counts = new Map<string, number>();
    let current: { name: string; columns: string[]; rows: number } | null = null;
    for await (const item of items) {
      if (item.kind === 'table') {
        current = { name: item.name, columns: item.columns, rows: 0 };
        await checkColumns(db, engine, tables, item.name, item.columns);
      } else if (item.kind === 'rows') {
        if (!current) throw new RestoreRefused('The file has rows outside any table');
        await insertRows(db, current.name, current.columns, item.rows);
        current.rows += item.rows.length;
      } else {
        if (!current || current.name !== item.name || current.rows !== item.rows)
          throw new RestoreRefused(
            `The file is damaged: table ${item.name} ends after ${current?.rows ?? 0} rows, its count says ${item.rows}`,
          );
        counts.set(current.name, current.rows);
        current = null;
      }
    }
    if (engine === 'postgres') await advanceSequences(db, [...counts.keys()]);
    return counts;
  });
}

async function targetState(db: Kysely<any>, engine: Engine): Promise<TargetState> {
  const present = await tablesOf(db, engine);
  const content: TargetState['content'] = [];
  for (const table of CONTENT_TABLES.filter((t) => present.includes(t))) {
    const rows = await count(db, table);
    if (rows > 0) content.push({ table, rows });
  }
  const { rows: members } = await sql<{ name: string; age: number }>`select name,
    ${dbNowMs(engine)} - heartbeat_at as age from cluster_members
    where heartbeat_at > ${dbNowMs(engine)} - 60000`.execute(db);
  return {
    content,
    users: await count(db, 'users'),
    liveMembers: members.map((m) => ({ name: m.name, ageMs: Math.max(0, Number(m.age)) })),
  };
}

async function count(db: Kysely<any>, table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function checkColumns(
  db: Kysely<any>,
  engine: Engine,
  tables: string[],
  name: string,
  columns: string[],
): Promise<void> {
  if (!tables.includes(name))
    throw new RestoreRefused(`The backup has a table this schema lacks: ${name}`);
  const known = await columnsOf(db, engine, name);
  const unknown = columns.filter((c) => !known.includes(c));
  if (unknown.length > 0 || columns.length === 0)
    throw new RestoreRefused(
      `The backup's table ${name} has columns this schema lacks: ${unknown.join(', ') || '(none listed)'}`,
    );
}

async function insertRows(
  db: Kysely<any>,
  table: string,
  columns: string[],
  rows: unknown[][],
): Promise<void> {
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += per) {
    const values = rows.slice(i, i + per).map((row) => {
      if (row.length !== columns.length)
        throw new RestoreRefused(
          `The file is damaged: a row of ${table} has ${row.length} values for ${columns.length} columns`,
        );
      return Object.fromEntries(columns.map((c, j) => [c, row[j]]));
    });
    await db.insertInto(table).values(values).execute();
  }
}

/** Each serial id's sequence continues after the largest restored id. */
async function advanceSequences(db: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await sql<{ seq: string | null }>`
      select pg_get_serial_sequence(${table}, 'id') as seq
      where exists (select 1 from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and column_name = 'id')`.execute(
      db,
    );
    const seq = rows[0]?.seq;
    if (!seq) continue;
    await sql`select setval(${seq}::regclass,
      (select coalesce(max(id), 0) + 1 from ${sql.id(table)}), false)`.execute(db);
  }
}
