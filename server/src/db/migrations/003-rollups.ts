import { sql, type Kysely, type Migration } from 'kysely';
import { foldChecks, rollupLevels, type RolledCheck } from '../../domain/rollup.js';
import { decodeOutcome } from '../codecs.js';
import type { Engine } from '../database.js';
import type { DB } from '../schema.js';
import { applyRollupDeltas } from '../repositories/rollups.js';

/** Minute, hour and day rollups with outcome counts, latency sketch and phase sums. */
export function rollups(engine: Engine): Migration {
  return {
    async up(db: Kysely<any>) {
      // SQLite's migrations run outside a transaction; this one rewrites data, so it takes one.
      if (engine === 'sqlite') await db.transaction().execute((trx) => migrate(trx, engine));
      else await migrate(db, engine);
    },
  };
}

async function migrate(db: Kysely<any>, engine: Engine): Promise<void> {
  // The 001 hourly rollup lacks sketches and phases; it is rebuilt from the raw results.
  await db.schema.dropTable('rollup_hour').execute();
  for (const table of ['rollup_minute', 'rollup_hour', 'rollup_day']) {
    await createRollupTable(db, engine, table);
  }
  // No index on bucket alone: every read names its monitors (the dashboard's uptime, stats,
  // retention), so the primary key serves them all.
  await backfill(db as Kysely<DB>, engine);
}

async function createRollupTable(db: Kysely<any>, engine: Engine, name: string): Promise<void> {
  const ms = 'bigint' as const;
  let t = db.schema
    .createTable(name)
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
    .addColumn('latency_sketch', engine === 'sqlite' ? 'blob' : 'bytea');
  for (const phase of ['dns', 'connect', 'tls', 'ttfb', 'download']) {
    t = t
      .addColumn(`${phase}_sum_us`, ms, (c) => c.notNull().defaultTo(0))
      .addColumn(`${phase}_count`, 'integer', (c) => c.notNull().defaultTo(0));
  }
  t = t.addPrimaryKeyConstraint(`${name}_pk`, ['monitor_id', 'bucket']);
  // Clustered by (monitor, bucket): a window is one contiguous range, and there is no rowid
  // index to keep beside the key.
  if (engine === 'sqlite') t = t.modifyEnd(sql`without rowid`);
  await t.execute();
}

/**
 * Folds the existing raw results into the new rollups, a page at a time. It uses today's
 * rollup code, which is fine while that matches this schema; a later migration that changes
 * the rollup tables must rebuild them itself rather than rely on this one.
 */
async function backfill(db: Kysely<DB>, engine: Engine): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('check_results')
      .select([
        'id',
        'monitor_id',
        'at',
        'outcome',
        'latency_us',
        'dns_us',
        'connect_us',
        'tls_us',
        'ttfb_us',
        'download_us',
      ])
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .execute();
    if (rows.length === 0) return;
    after = Number(rows.at(-1)?.id);
    const checks: RolledCheck[] = rows.map((r) => ({
      monitorId: r.monitor_id,
      at: Number(r.at),
      outcome: decodeOutcome(r.outcome),
      latencyUs: r.latency_us,
      phasesUs: {
        dns: r.dns_us,
        connect: r.connect_us,
        tls: r.tls_us,
        ttfb: r.ttfb_us,
        download: r.download_us,
      },
    }));
    for (const level of rollupLevels) {
      await applyRollupDeltas(db, engine, level, foldChecks(level, checks));
    }
  }
}
