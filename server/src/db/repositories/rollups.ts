import type { Kysely } from 'kysely';
import { hotStatements as hot, pieces, tuples } from '../hot-statements.js';
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
function upsertSql(engine: Engine, table: string, values: string): string {
  const [least, greatest] = engine === 'sqlite' ? ['min', 'max'] : ['least', 'greatest'];
  const pick = (fn: string, c: string) =>
    `${c} = ${fn}(coalesce(${table}.${c}, excluded.${c}), coalesce(excluded.${c}, ${table}.${c}))`;
  const set = [
    ...summedColumns.map((c) => `${c} = ${table}.${c} + excluded.${c}`),
    pick(least, 'latency_min_us'),
    pick(greatest, 'latency_max_us'),
    `latency_sketch = coalesce(excluded.latency_sketch, ${table}.latency_sketch)`,
  ];
  return `insert into ${table} (${rowColumns.join(', ')}) values ${values} on conflict (monitor_id, bucket) do update set ${set.join(', ')}`;
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
  const table = tableOf(level);
  for (const part of pieces(timed)) {
    const text = hot(engine).sql(`rollup-read:${table}:${part.length}`, (p) => {
      const lock = engine === 'postgres' ? ' order by monitor_id, bucket for update' : '';
      return `select monitor_id, bucket, latency_count, latency_min_us, latency_max_us, latency_sketch from ${table} where (monitor_id, bucket) in (${tuples(p, part.length, 2)})${lock}`;
    });
    const params: number[] = [];
    for (const d of part) params.push(d.monitorId, d.bucket);
    const { rows } = await hot(engine).run<StoredSketchRow>(trx, text, params);
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
  for (const part of pieces(deltas)) {
    const text = hot(engine).sql(`rollup-add:${table}:${part.length}`, (p) =>
      upsertSql(engine, table, tuples(p, part.length, rowColumns.length)),
    );
    const params: unknown[] = [];
    for (const d of part) {
      const row = rollupRow(d, sketches.get(d) ?? null);
      for (const c of rowColumns) params.push(row[c]);
    }
    await hot(engine).run(trx, text, params);
  }
}
