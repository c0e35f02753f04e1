import type { Kysely } from 'kysely';
import { columnsOf, hotStatements as hot, pieces, tuples, unnestOf } from '../hot-statements.js';
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

/** The columns of a rollup row, in the order the upsert binds them. */
const rowColumns = [
  'monitor_id',
  'bucket',
  ...summedColumns.slice(0, 6),
  'latency_min_us',
  'latency_max_us',
  'latency_sketch',
  ...summedColumns.slice(6),
] as const satisfies readonly (keyof RollupTable)[];

/**
 * Adds rows to their buckets: counts and sums add up, min and max widen (coalesced first, as
 * SQLite's min()/max() and PostgreSQL's least()/greatest() disagree on nulls), and a new sketch
 * (already merged with the stored one) replaces the stored one.
 */
function upsertSql(engine: Engine, table: string, source: string): string {
  const [least, greatest] = engine === 'sqlite' ? ['min', 'max'] : ['least', 'greatest'];
  const pick = (fn: string, c: string) =>
    `${c} = ${fn}(coalesce(${table}.${c}, excluded.${c}), coalesce(excluded.${c}, ${table}.${c}))`;
  const set = [
    ...summedColumns.map((c) => `${c} = ${table}.${c} + excluded.${c}`),
    pick(least, 'latency_min_us'),
    pick(greatest, 'latency_max_us'),
    `latency_sketch = coalesce(excluded.latency_sketch, ${table}.latency_sketch)`,
  ];
  return `insert into ${table} (${rowColumns.join(', ')}) ${source} on conflict (monitor_id, bucket) do update set ${set.join(', ')}`;
}

interface StoredSketchRow {
  monitor_id: number;
  bucket: number;
  latency_count: number;
  latency_min_us: number | null;
  latency_max_us: number | null;
  latency_sketch: Uint8Array | null;
}

/**
 * The sketch each delta's bucket will hold after the delta is added: the stored one (read in
 * this transaction) merged with the delta's. Null where the delta adds no latency (the stored
 * sketch stays) or the bucket keeps none. Counts and sums are merged in SQL by the upsert.
 *
 * Concurrency: this read-modify-write relies on each monitor's results being written by one
 * writer at a time: the machine's result writer, whose batches in flight together never share
 * a monitor (ResultWriter's lanes). On PostgreSQL the rows are also locked FOR UPDATE, but a
 * bucket first created by another writer between our read and our insert (two processes
 * overlapping in a takeover) would lose that writer's sketch: the counts stay right.
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
  const table = tableOf(level);
  const keep = (rows: StoredSketchRow[]) => {
    for (const r of rows) {
      stored.set(`${r.monitor_id}:${Number(r.bucket)}`, {
        sketch: r.latency_sketch,
        latencyCount: Number(r.latency_count),
        latencyMinUs: r.latency_min_us === null ? null : Number(r.latency_min_us),
        latencyMaxUs: r.latency_max_us === null ? null : Number(r.latency_max_us),
      });
    }
  };
  const read = `select ${table}.monitor_id, ${table}.bucket, latency_count, latency_min_us, latency_max_us, latency_sketch from ${table}`;
  if (engine === 'postgres') {
    const text = hot(engine).sql(
      `rollup-read:${table}`,
      () =>
        `${read} join unnest($1::integer[], $2::bigint[]) as k (monitor_id, bucket) on ${table}.monitor_id = k.monitor_id and ${table}.bucket = k.bucket order by ${table}.monitor_id, ${table}.bucket for update of ${table}`,
    );
    const params = [timed.map((d) => d.monitorId), timed.map((d) => d.bucket)];
    if (timed.length > 0) keep((await hot(engine).run<StoredSketchRow>(trx, text, params)).rows);
  } else {
    for (const part of pieces(timed)) {
      const text = hot(engine).sql(
        `rollup-read:${table}:${part.length}`,
        (p) => `${read} where (monitor_id, bucket) in (${tuples(p, part.length, 2)})`,
      );
      const params: number[] = [];
      for (const d of part) params.push(d.monitorId, d.bucket);
      keep((await hot(engine).run<StoredSketchRow>(trx, text, params)).rows);
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
  const rowOf = (d: RollupDelta) => {
    const row = rollupRow(d, sketches.get(d) ?? null);
    return rowColumns.map((c) => row[c]);
  };
  if (engine === 'postgres') {
    const text = hot(engine).sql(`rollup-add:${table}`, () =>
      upsertSql(engine, table, `select * from ${unnestOf(rowColumns.map(pgTypeOf))}`),
    );
    await hot(engine).run(trx, text, columnsOf(deltas.map(rowOf), rowColumns.length));
    return;
  }
  for (const part of pieces(deltas)) {
    const text = hot(engine).sql(`rollup-add:${table}:${part.length}`, (p) =>
      upsertSql(engine, table, `values ${tuples(p, part.length, rowColumns.length)}`),
    );
    await hot(engine).run(trx, text, part.flatMap(rowOf));
  }
}

/** A rollup column's type, for PostgreSQL's arrays. */
function pgTypeOf(column: (typeof rowColumns)[number]): string {
  if (column === 'latency_sketch') return 'bytea';
  if (column === 'bucket' || column.endsWith('_sum_us')) return 'bigint';
  return 'integer';
}
