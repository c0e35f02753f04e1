import type { Kysely } from 'kysely';
import type { CountedBucket } from '../../domain/availability/index.js';
import { LatencySketch } from '../../domain/latency-sketch.js';
import { levelMs, mergeStoredSketch, type Span } from '../../domain/rollup.js';
import type { DB } from '../schema.js';

/**
 * Runs of day rollups read as one sum per monitor (ADR 75): a year's report for 1,000
 * monitors needs 12 sums each, not 365 rows with a latency sketch in every one. Counts and
 * min/max are summed by the database; the merged sketch of a run is kept in memory and in
 * `rollup_run_sketches`, keyed by monitor and run and checked on every read against a
 * fingerprint of the run's days (their number, checks, latency count, sum, min and max: the
 * database's sums). Rollups only grow, so a late or replayed result, a rebuilt or expired day
 * changes that fingerprint and the run's sketch is merged again: the figures are always those
 * of the stored days, exactly (sketches merge exactly).
 */

const DAY_MS = levelMs.day;
/** Monitors per statement, as the other rollup reads. */
const ID_CHUNK = 500;
/** Stored run sketches per statement (5 values each). */
const STORE_CHUNK = 500;
/** Kept run sketches (a year of months for 10,000 monitors is 120,000; each ~0.1-1 KB). */
const CACHE_ENTRIES = 150_000;

interface KeptSketch {
  fingerprint: string;
  bytes: Uint8Array;
}

/** Merged sketches of day runs, least recently used dropped first. */
export interface SketchCache {
  get(key: string, fingerprint: string): Uint8Array | null;
  set(key: string, fingerprint: string, bytes: Uint8Array): void;
}

export function sketchCache(limit = CACHE_ENTRIES): SketchCache {
  const kept = new Map<string, KeptSketch>();
  return {
    get(key, fingerprint) {
      const k = kept.get(key);
      if (!k || k.fingerprint !== fingerprint) return null;
      kept.delete(key);
      kept.set(key, k);
      return k.bytes;
    },
    set(key, fingerprint, bytes) {
      kept.delete(key);
      kept.set(key, { fingerprint, bytes });
      while (kept.size > limit) {
        const oldest = kept.keys().next();
        if (oldest.done) break;
        kept.delete(oldest.value);
      }
    },
  };
}

/**
 * Day spans cut where any of them starts or ends: each segment lies wholly inside or wholly
 * outside every span, so a sum over a segment counts in exactly the spans its days would.
 */
export function daySegments(spans: readonly Span[]): Span[] {
  const cuts = [...new Set(spans.flatMap((s) => [s.from, s.to + DAY_MS]))].sort((a, b) => a - b);
  const out: Span[] = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const from = cuts[i]!;
    const to = cuts[i + 1]! - DAY_MS;
    if (spans.some((s) => s.from <= from && s.to >= to)) out.push({ level: 'day', from, to });
  }
  return out;
}

/** A run's latency, as the report's percentiles read a stored bucket. */
export interface RunLatency {
  monitorId: number;
  bucket: number;
  sketch: Uint8Array;
  latencyCount: number;
  latencyMinUs: number | null;
  latencyMaxUs: number | null;
}

const chunks = <T>(list: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};
const num = (v: unknown): number => Number(v ?? 0);
const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Each run's sum per monitor, as one bucket starting at the run's first day (size: a day, so
 * `countsInSpans` counts it in the spans that hold the run), and its merged latency sketch.
 */
export async function readDaySums(
  db: Kysely<DB>,
  cache: SketchCache,
  monitorIds: readonly number[],
  runs: readonly Span[],
): Promise<{ counts: CountedBucket[]; latency: RunLatency[]; merged: number }> {
  const counts: CountedBucket[] = [];
  const latency: RunLatency[] = [];
  let merged = 0;
  for (const run of runs) {
    for (const ids of chunks(monitorIds, ID_CHUNK)) {
      const rows = await db
        .selectFrom('rollup_day')
        .select((eb) => [
          'monitor_id',
          eb.fn.countAll().as('days'),
          eb.fn.sum('checks').as('checks'),
          eb.fn.sum('up').as('up'),
          eb.fn.sum('degraded').as('degraded'),
          eb.fn.sum('down').as('down'),
          eb.fn.sum('latency_count').as('latency_count'),
          eb.fn.sum('latency_sum_us').as('latency_sum_us'),
          eb.fn.min('latency_min_us').as('latency_min_us'),
          eb.fn.max('latency_max_us').as('latency_max_us'),
        ])
        .where('monitor_id', 'in', ids)
        .where('bucket', '>=', run.from)
        .where('bucket', '<=', run.to)
        .groupBy('monitor_id')
        .execute();
      const missing: Missing = new Map();
      for (const r of rows) {
        const monitorId = Number(r.monitor_id);
        counts.push({
          monitorId,
          bucket: run.from,
          size: DAY_MS,
          checks: num(r.checks),
          up: num(r.up),
          degraded: num(r.degraded),
          down: num(r.down),
        });
        const latencyCount = num(r.latency_count);
        if (latencyCount <= 0) continue;
        const key = `${monitorId}:${run.from}:${run.to}`;
        const fingerprint = [
          r.days,
          r.checks,
          latencyCount,
          r.latency_sum_us,
          r.latency_min_us,
          r.latency_max_us,
        ]
          .map(num)
          .join(':');
        const at = latency.length;
        latency.push({
          monitorId,
          bucket: run.from,
          sketch: cache.get(key, fingerprint) ?? new Uint8Array(0),
          latencyCount,
          latencyMinUs: orNull(r.latency_min_us),
          latencyMaxUs: orNull(r.latency_max_us),
        });
        if (latency[at]!.sketch.length === 0) missing.set(monitorId, { key, fingerprint, at });
      }
      const read = { db, cache, run, missing, into: latency };
      if (missing.size > 0) await readStored(read);
      merged += missing.size;
      if (missing.size > 0) await mergeRuns(read);
    }
  }
  return { counts, latency, merged };
}

type Missing = Map<number, { key: string; fingerprint: string; at: number }>;

/** One run's sketches still to find, for monitors whose memory copy was missing or stale. */
interface RunSketchRead {
  db: Kysely<DB>;
  cache: SketchCache;
  run: Span;
  missing: Missing;
  into: RunLatency[];
}

/** Takes the stored sketches of missing runs whose days have not changed since (ADR 75). */
async function readStored({ db, cache, run, missing, into }: RunSketchRead): Promise<void> {
  const rows = await db
    .selectFrom('rollup_run_sketches')
    .select(['monitor_id', 'fingerprint', 'sketch'])
    .where('monitor_id', 'in', [...missing.keys()])
    .where('run_from', '=', run.from)
    .where('run_to', '=', run.to)
    .execute();
  for (const r of rows) {
    const id = Number(r.monitor_id);
    const m = missing.get(id);
    if (!m || r.fingerprint !== m.fingerprint) continue;
    const bytes = new Uint8Array(r.sketch);
    into[m.at]!.sketch = bytes;
    cache.set(m.key, m.fingerprint, bytes);
    missing.delete(id);
  }
}

/** Merges the days' sketches of the runs not kept (or changed since), and keeps them. */
async function mergeRuns({ db, cache, run, missing, into }: RunSketchRead): Promise<void> {
  const merged = new Map<number, LatencySketch>();
  const rows = await db
    .selectFrom('rollup_day')
    .select(['monitor_id', 'latency_sketch', 'latency_count', 'latency_min_us', 'latency_max_us'])
    .where('monitor_id', 'in', [...missing.keys()])
    .where('bucket', '>=', run.from)
    .where('bucket', '<=', run.to)
    .where('latency_count', '>', 0)
    .execute();
  for (const r of rows) {
    const id = Number(r.monitor_id);
    const sketch = merged.get(id) ?? new LatencySketch();
    merged.set(id, sketch);
    mergeStoredSketch(sketch, {
      sketch: r.latency_sketch,
      latencyCount: Number(r.latency_count),
      latencyMinUs: orNull(r.latency_min_us),
      latencyMaxUs: orNull(r.latency_max_us),
    });
  }
  const stored: DB['rollup_run_sketches'][] = [];
  for (const [id, m] of missing) {
    const bytes = (merged.get(id) ?? new LatencySketch()).serialize();
    into[m.at]!.sketch = bytes;
    cache.set(m.key, m.fingerprint, bytes);
    stored.push({
      monitor_id: id,
      run_from: run.from,
      run_to: run.to,
      fingerprint: m.fingerprint,
      sketch: bytes,
    });
  }
  // Another process may have stored the same run meanwhile: the same days give the same bytes.
  for (const part of chunks(stored, STORE_CHUNK)) {
    await db
      .insertInto('rollup_run_sketches')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['monitor_id', 'run_from', 'run_to']).doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          sketch: eb.ref('excluded.sketch'),
        })),
      )
      .execute();
  }
}
