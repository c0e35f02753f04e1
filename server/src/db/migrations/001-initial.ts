import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../database.js';

export function initial(engine: Engine): Migration {
  // Auto-increment keys differ by engine; everything else is portable.
  const id = engine === 'sqlite' ? ('integer' as const) : ('bigserial' as const);
  const idOpts = engine === 'sqlite' ? { autoIncrement: true } : {};
  const ms = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('monitors')
        .addColumn('id', id, (c) =>
          idOpts.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('interval_s', 'integer', (c) => c.notNull())
        .addColumn('timeout_s', 'integer', (c) => c.notNull())
        .addColumn('retries', 'integer', (c) => c.notNull())
        .addColumn('retry_interval_s', 'integer')
        .addColumn('degraded_threshold_ms', 'integer')
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status_changed_at', ms)
        .addColumn('last_check_at', ms)
        .addColumn('last_outcome', 'integer')
        .addColumn('last_latency_us', 'integer')
        .addColumn('last_http_status', 'integer')
        .addColumn('last_error_code', 'text')
        .addColumn('last_error_message', 'text')
        .addColumn('recent', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', ms, (c) => c.notNull())
        .addColumn('updated_at', ms, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('check_results')
        .addColumn('id', id, (c) =>
          idOpts.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('at', ms, (c) => c.notNull())
        .addColumn('outcome', 'smallint', (c) => c.notNull())
        .addColumn('latency_us', 'integer')
        .addColumn('dns_us', 'integer')
        .addColumn('connect_us', 'integer')
        .addColumn('tls_us', 'integer')
        .addColumn('ttfb_us', 'integer')
        .addColumn('download_us', 'integer')
        .addColumn('http_status', 'smallint')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('response_size', 'integer')
        .addColumn('cert_expires_at', ms)
        .execute();
      await db.schema
        .createIndex('check_results_monitor_at')
        .on('check_results')
        .columns(['monitor_id', 'at'])
        .execute();

      await db.schema
        .createTable('rollup_hour')
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('bucket', ms, (c) => c.notNull())
        .addColumn('checks', 'integer', (c) => c.notNull())
        .addColumn('up', 'integer', (c) => c.notNull())
        .addColumn('degraded', 'integer', (c) => c.notNull())
        .addColumn('down', 'integer', (c) => c.notNull())
        .addColumn('latency_sum_us', ms, (c) => c.notNull())
        .addColumn('latency_count', 'integer', (c) => c.notNull())
        .addColumn('latency_min_us', 'integer')
        .addColumn('latency_max_us', 'integer')
        .addPrimaryKeyConstraint('rollup_hour_pk', ['monitor_id', 'bucket'])
        .execute();
      await db.schema
        .createIndex('rollup_hour_bucket')
        .on('rollup_hour')
        .columns(['bucket', 'monitor_id'])
        .execute();

      await db.schema
        .createTable('status_flips')
        .addColumn('id', id, (c) =>
          idOpts.autoIncrement ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('monitor_id', 'integer', (c) =>
          c.notNull().references('monitors.id').onDelete('cascade'),
        )
        .addColumn('at', ms, (c) => c.notNull())
        .addColumn('from_status', 'text', (c) => c.notNull())
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('message', 'text')
        .execute();
      await db.schema
        .createIndex('status_flips_monitor_at')
        .on('status_flips')
        .columns(['monitor_id', 'at'])
        .execute();
      void sql;
    },
  };
}
