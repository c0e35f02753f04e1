import { sql, type RawBuilder } from 'kysely';
import type { Engine } from './database.js';

/**
 * The database's own clock in epoch milliseconds, for leases that every process must read the
 * same way (ADR 21). PostgreSQL: the statement's start; SQLite: `unixepoch('subsec')`, the
 * machine's clock, which on one machine is every process's clock.
 */
export function dbNowMs(engine: Engine): RawBuilder<number> {
  return engine === 'postgres'
    ? sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`
    : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;
}

/** `column IN (list)` with the whole list as one parameter: an array or a JSON text. */
export function inIntegers(engine: Engine, column: string, values: readonly number[]) {
  const ref = sql.ref(column);
  return engine === 'postgres'
    ? sql<boolean>`${ref} = any(${[...values]}::int[])`
    : sql<boolean>`${ref} in (select value from json_each(${JSON.stringify(values)}))`;
}

/** `column IN (list)` for text values, as one parameter. */
export function inTexts(engine: Engine, column: string, values: readonly string[]) {
  const ref = sql.ref(column);
  return engine === 'postgres'
    ? sql<boolean>`${ref} = any(${[...values]}::text[])`
    : sql<boolean>`${ref} in (select value from json_each(${JSON.stringify(values)}))`;
}
