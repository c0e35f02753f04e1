import { sql, type Kysely } from 'kysely';
import { LatencySketch } from '../../domain/latency-sketch.js';
import {
  keepsSketch,
  mergeStoredSketch,
  type RollupDelta,
  type RollupLevel,
  type SketchSource,
} from '../../domain/rollup.js';
import type { Engine } from '../database.js';
import type { DB, RollupTable } from '../schema.js';

export const rollupTables = {
  minute: 'rollup_minute',
  hour: 'rollup_hour',
  day: 'rollup_day',
} as const satisfies Record<RollupLevel, keyof DB>;

// The three tables share one shape; Kysely is told it is this one to keep the typing simple.
export type AnyRollupTable = 'rollup_hour';
export const tableOf = (level: RollupLevel) => rollupTables[level] as AnyRollupTable;

// better-sqlite3 binds Buffers, not plain Uint8Arrays.
const toBlob = (bytes: Uint8Array | null): Buffer | null =>
  bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The row a delta is written as; `sketch` is the merged sketch to store, if any. */
export function rollupRow(d: RollupDelta, sketch: Uint8Array | null): RollupTable {
  const { phases: p } = d;
  return {
    monitor_id: d.monitorId,
    bucket: d.bucket,
    checks: d.checks,
    up: d.up,
    degraded: d.degraded,
    down: d.down,
    latency_sum_us: d.latencySumUs,
    latency_count: d.latencyCount,
    latency_min_us: d.latencyMinUs,
    latency_max_us: d.latencyMaxUs,
    latency_sketch: toBlob(sketch),
    dns_sum_us: p.dns.sumUs,
    dns_count: p.dns.count,
    connect_sum_us: p.connect.sumUs,
    connect_count: p.connect.count,
    tls_sum_us: p.tls.sumUs,
    tls_count: p.tls.count,
    ttfb_sum_us: p.ttfb.sumUs,
    ttfb_count: p.ttfb.count,
    download_sum_us: p.download.sumUs,
    download_count: p.download.count,
  };
}

/** Columns that add up when buckets merge. */
export const summedColumns = [
  'checks',
  'up',
  'degraded',
  'down',
  'latency_sum_us',
  'latency_count',
  'dns_sum_us',
  'dns_count',
  'connect_sum_us',
  'connect_count',
  'tls_sum_us',
  'tls_count',
  'ttfb_sum_us',
  'ttfb_count',
  'download_sum_us',
  'download_count',
] as const;

const CHUNK = 200;
function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The sketch each delta's bucket will hold after the delta is added: the stored one (read in
 * this transaction) merged with the delta's. Null where the delta adds no latency (the stored
 * sketch stays) or the bucket keeps none. Counts and sums are merged in SQL by the upsert.
 *
 * Concurrency: this read-modify-write assumes one result writer per database, which is what
 * runs today (the scheduler role's ResultWriter). On PostgreSQL the rows are also locked FOR
 * UPDATE, but a bucket first created by a concurrent writer between our read and our insert
 * would lose that writer's sketch; a second writer needs an advisory lock here first.
 */
async function mergedSketches(
  trx: Kysely<DB>,
  engine: Engine,
  level: RollupLevel,
  deltas: readonly RollupDelta[],
): Promise<Map<RollupDelta, Uint8Array | null>> {
  const out = new Map<RollupDelta, Uint8Array | null>();
  const timed = deltas.filter((d) => d.latencyCount > 0);
  const stored = new Map<string, SketchSource>();
  for (const part of chunks(timed)) {
    const rows = await trx
      .selectFrom(tableOf(level))
      .select([
        'monitor_id',
        'bucket',
        'latency_count',
        'latency_min_us',
        'latency_max_us',
        'latency_sketch',
      ])
      .where((eb) =>
        eb(
          eb.refTuple('monitor_id', 'bucket'),
          'in',
          part.map((d) => eb.tuple(d.monitorId, d.bucket)),
        ),
      )
      .$if(engine === 'postgres', (q) => q.orderBy('monitor_id').orderBy('bucket').forUpdate())
      .execute();
    for (const r of rows) {
      stored.set(`${r.monitor_id}:${Number(r.bucket)}`, {
        sketch: r.latency_sketch,
        latencyCount: Number(r.latency_count),
        latencyMinUs: r.latency_min_us === null ? null : Number(r.latency_min_us),
        latencyMaxUs: r.latency_max_us === null ? null : Number(r.latency_max_us),
      });
    }
  }
  for (const d of deltas) {
    if (d.latencyCount === 0) {
      out.set(d, null);
      continue;
    }
    const before = stored.get(`${d.monitorId}:${d.bucket}`);
    const merged = new LatencySketch().merge(d.sketch);
    if (before) mergeStoredSketch(merged, before);
    out.set(d, keepsSketch(merged.count) ? merged.serialize() : null);
  }
  return out;
}

/** Adds a batch's deltas to one level's buckets: one upsert row per monitor and bucket. */
export async function applyRollupDeltas(
  trx: Kysely<DB>,
  engine: Engine,
  level: RollupLevel,
  deltas: readonly RollupDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  const sketches = await mergedSketches(trx, engine, level, deltas);
  const table = tableOf(level);
  const least = engine === 'sqlite' ? 'min' : 'least';
  const greatest = engine === 'sqlite' ? 'max' : 'greatest';
  const add = (col: string) => sql`${sql.ref(`${table}.${col}`)} + ${sql.ref(`excluded.${col}`)}`;
  // min()/max() of SQLite and least()/greatest() of PostgreSQL disagree on nulls; coalesce first.
  const pick = (fn: string, col: string) => {
    const [t, e] = [sql.ref(`${table}.${col}`), sql.ref(`excluded.${col}`)];
    return sql<number | null>`${sql.raw(fn)}(coalesce(${t}, ${e}), coalesce(${e}, ${t}))`;
  };
  for (const part of chunks(deltas)) {
    await trx
      .insertInto(table)
      .values(part.map((d) => rollupRow(d, sketches.get(d) ?? null)))
      .onConflict((oc) =>
        oc.columns(['monitor_id', 'bucket']).doUpdateSet({
          ...Object.fromEntries(summedColumns.map((c) => [c, add(c)])),
          latency_min_us: pick(least, 'latency_min_us'),
          latency_max_us: pick(greatest, 'latency_max_us'),
          latency_sketch: sql<Uint8Array | null>`coalesce(${sql.ref('excluded.latency_sketch')}, ${sql.ref(`${table}.latency_sketch`)})`,
        }),
      )
      .execute();
  }
}
