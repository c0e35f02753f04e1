import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from 'kysely';

/**
 * The migrator's database, looking only at the schema it migrates. Kysely's own introspection
 * reads every schema's tables through pg_get_serial_sequence, which fails with "schema … does
 * not exist" when another schema of the same database is dropped meanwhile (parallel test runs,
 * several deployments in one database); the migrator only asks which tables exist here.
 */
export function ownSchemaOnly(db: Kysely<any>, schema: string): Kysely<any> {
  const introspector: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () => {
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
      return rows.map((r): TableMetadata => ({ name: r.name, schema, isView: false, columns: [] }));
    },
    getMetadata: async () => ({ tables: await introspector.getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspector;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
