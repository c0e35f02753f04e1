// The local PostgreSQL the benches use (BENCH_POSTGRES_URL, else PAGEWATCH_TEST_POSTGRES_URL, else
// the test database on 127.0.0.1): short statements, bench schemas and their sizes.
import pg from 'pg';

export const postgresUrl =
  process.env.BENCH_POSTGRES_URL ??
  process.env.PAGEWATCH_TEST_POSTGRES_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/** Runs one statement on a connection of its own; resolves with the rows. */
export async function pgQuery(text, params = []) {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

export const pgReachable = () =>
  pgQuery('select 1').then(
    () => true,
    () => false,
  );

/** Creates a schema of a fresh name; `drop()` removes it with all it holds. */
export async function benchSchema() {
  const schema = `pw_bench_${Math.random().toString(36).slice(2, 10)}`;
  await pgQuery(`create schema ${schema}`);
  return { schema, drop: () => pgQuery(`drop schema if exists ${schema} cascade`) };
}

/** Bytes on disk of a schema's tables with their indexes and TOAST (pg_total_relation_size). */
export async function schemaBytes(schema) {
  const rows = await pgQuery(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'm', 'p')`,
    [schema],
  );
  return Number(rows[0].bytes);
}
