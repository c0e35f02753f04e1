import type { Kysely } from 'kysely';
import type { CountedBucket, Interval } from '../../domain/availability/index.js';
import { levelMs, rollupLevels, type Span } from '../../domain/rollup.js';
import type { DB } from '../schema.js';
import { daySegments, readDaySums, type SketchCache, sketchCache } from './day-sums.js';
import { tableOf } from './rollups.js';

/** Monitors per statement: a few hundred index ranges, well under both engines' limits. */
const ID_CHUNK = 500;
/** Bucket ranges per statement (OR'ed on the primary key). */
const SPAN_CHUNK = 100;

const chunks = <T>(list: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/** Spans of one level with overlapping or adjacent bucket ranges joined. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.from <= last.to + levelMs[s.level]) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

export interface CorrectionRecord {
  id: number;
  monitorId: number;
  startsAt: number;
  endsAt: number;
  reason: string;
  createdBy: string;
  createdAt: number;
}

export interface OutageRecord extends Interval {
  monitorId: number;
  incidentId: number;
  title: string;
}

const correctionColumns = [
  'id',
  'monitor_id',
  'starts_at',
  'ends_at',
  'reason',
  'created_by',
  'created_at',
] as const;

/** What the one availability computation reads: outcome counts, outages and corrections. */
export function availabilityRepository(db: Kysely<DB>, sketches: SketchCache = sketchCache()) {
  return {
    /**
     * The outcome counts of these monitors' rollup buckets that lie in `spans` (bucket starts,
     * inclusive): one row per stored bucket, at most a statement per level and chunk.
     */
    async counts(monitorIds: readonly number[], spans: readonly Span[]): Promise<CountedBucket[]> {
      const out: CountedBucket[] = [];
      for (const level of rollupLevels) {
        const mine = spans.filter((s) => s.level === level);
        for (const ids of chunks(monitorIds, ID_CHUNK)) {
          for (const part of chunks(mine, SPAN_CHUNK)) {
            const rows = await db
              .selectFrom(tableOf(level))
              .select(['monitor_id', 'bucket', 'checks', 'up', 'degraded', 'down'])
              .where('monitor_id', 'in', ids)
              .where((eb) =>
                eb.or(
                  part.map((s) => eb.and([eb('bucket', '>=', s.from), eb('bucket', '<=', s.to)])),
                ),
              )
              .execute();
            for (const r of rows) {
              out.push({
                monitorId: Number(r.monitor_id),
                bucket: Number(r.bucket),
                size: levelMs[level],
                checks: Number(r.checks),
                up: Number(r.up),
                degraded: Number(r.degraded),
                down: Number(r.down),
              });
            }
          }
        }
      }
      return out;
    },

    /** Outages Pagewatch opened for these monitors that overlap [from, to); open ones end now. */
    async outages(monitorIds: readonly number[], from: number, to: number, now: number) {
      const out: OutageRecord[] = [];
      for (const ids of chunks(monitorIds, ID_CHUNK)) {
        const rows = await db
          .selectFrom('incidents')
          .select(['id', 'monitor_id', 'title', 'started_at', 'resolved_at'])
          .where('monitor_id', 'in', ids)
          .where('automatic', '=', 1)
          .where('started_at', '<', to)
          .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>', from)]))
          .orderBy('started_at')
          .execute();
        for (const r of rows) {
          out.push({
            monitorId: Number(r.monitor_id),
            incidentId: Number(r.id),
            title: r.title,
            start: Number(r.started_at),
            end: r.resolved_at === null ? now : Number(r.resolved_at),
          });
        }
      }
      return out;
    },

    /** Corrections of these monitors that overlap [from, to), oldest first. */
    async corrections(monitorIds: readonly number[], from: number, to: number) {
      const out: CorrectionRecord[] = [];
      for (const ids of chunks(monitorIds, ID_CHUNK)) {
        const rows = await db
          .selectFrom('availability_corrections')
          .select(correctionColumns)
          .where('monitor_id', 'in', ids)
          .where('starts_at', '<', to)
          .where('ends_at', '>', from)
          .orderBy('starts_at')
          .execute();
        out.push(...rows.map(toCorrection));
      }
      return out;
    },

    latency: (monitorIds: readonly number[], spans: readonly Span[]) =>
      readLatency(db, monitorIds, spans),

    /**
     * Merges and stores the sketches of the day runs a report over `spans` reads, where they
     * are not stored yet or their days changed (ADR 75); the number merged.
     */
    async prepareRuns(monitorIds: readonly number[], spans: readonly Span[]): Promise<number> {
      const segments = daySegments(spans.filter((s) => s.level === 'day'));
      const runs = segments.filter((s) => s.to > s.from);
      return (await readDaySums(db, sketches, monitorIds, runs)).merged;
    },

    /** The time zones people report in: their schedules', links', status pages' and rotas'. */
    async zonesInUse(): Promise<string[]> {
      const rows = await db
        .selectFrom('report_schedules')
        .select('time_zone')
        .union(db.selectFrom('report_links').select('time_zone'))
        .union(db.selectFrom('status_pages').select('time_zone'))
        .union(db.selectFrom('oncall_schedules').select('time_zone'))
        .execute();
      return [...new Set(rows.map((r) => r.time_zone))].sort();
    },

    /**
     * Counts and latency of these monitors' buckets in `spans`, each stored row read once
     * (overlapping spans merged first): what a report needs, in one pass over the rollups.
     */
    async rollups(
      monitorIds: readonly number[],
      spans: readonly Span[],
    ): Promise<{ counts: CountedBucket[]; latency: LatencyBucket[] }> {
      const counts: CountedBucket[] = [];
      const latency: LatencyBucket[] = [];
      // Day spans are split where any span starts or ends; a run of several days, inside or
      // outside every span, is read as one sum per monitor (ADR 75), single days as stored.
      const segments = daySegments(spans.filter((s) => s.level === 'day'));
      const runs = segments.filter((s) => s.to > s.from);
      const sums = await readDaySums(db, sketches, monitorIds, runs);
      counts.push(...sums.counts);
      latency.push(...sums.latency);
      const single = segments.filter((s) => s.to === s.from);
      for (const level of rollupLevels) {
        const mine = mergeSpans(level === 'day' ? single : spans.filter((s) => s.level === level));
        for (const ids of chunks(monitorIds, ID_CHUNK)) {
          for (const part of chunks(mine, SPAN_CHUNK)) {
            const rows = await db
              .selectFrom(tableOf(level))
              .select([
                'monitor_id',
                'bucket',
                'checks',
                'up',
                'degraded',
                'down',
                'latency_sketch',
                'latency_count',
                'latency_min_us',
                'latency_max_us',
              ])
              .where('monitor_id', 'in', ids)
              .where((eb) =>
                eb.or(
                  part.map((s) => eb.and([eb('bucket', '>=', s.from), eb('bucket', '<=', s.to)])),
                ),
              )
              .execute();
            for (const r of rows) {
              const monitorId = Number(r.monitor_id);
              const bucket = Number(r.bucket);
              counts.push({
                monitorId,
                bucket,
                size: levelMs[level],
                checks: Number(r.checks),
                up: Number(r.up),
                degraded: Number(r.degraded),
                down: Number(r.down),
              });
              const latencyCount = Number(r.latency_count);
              if (latencyCount <= 0) continue;
              latency.push({
                monitorId,
                bucket,
                sketch: r.latency_sketch,
                latencyCount,
                latencyMinUs: r.latency_min_us === null ? null : Number(r.latency_min_us),
                latencyMaxUs: r.latency_max_us === null ? null : Number(r.latency_max_us),
              });
            }
          }
        }
      }
      return { counts, latency };
    },

    async correction(id: number): Promise<CorrectionRecord | null> {
      const row = await db
        .selectFrom('availability_corrections')
        .select(correctionColumns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toCorrection(row) : null;
    },

    async insertCorrection(c: Omit<CorrectionRecord, 'id'>): Promise<number> {
      const row = await db
        .insertInto('availability_corrections')
        .values({
          monitor_id: c.monitorId,
          starts_at: c.startsAt,
          ends_at: c.endsAt,
          reason: c.reason,
          created_by: c.createdBy,
          created_at: c.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async removeCorrection(id: number): Promise<boolean> {
      const res = await db
        .deleteFrom('availability_corrections')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}

type CorrectionRow = {
  id: number;
  monitor_id: number;
  starts_at: number;
  ends_at: number;
  reason: string;
  created_by: string;
  created_at: number;
};

const toCorrection = (r: CorrectionRow): CorrectionRecord => ({
  id: Number(r.id),
  monitorId: Number(r.monitor_id),
  startsAt: Number(r.starts_at),
  endsAt: Number(r.ends_at),
  reason: r.reason,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
});

export type AvailabilityRepository = ReturnType<typeof availabilityRepository>;

/** A stored bucket's latency, to merge into a period's percentiles. */
export interface LatencyBucket {
  monitorId: number;
  bucket: number;
  sketch: Uint8Array | null;
  latencyCount: number;
  latencyMinUs: number | null;
  latencyMaxUs: number | null;
}

/** The latency sketches of these monitors' buckets in `spans` (only buckets with latencies). */
export async function readLatency(
  db: Kysely<DB>,
  monitorIds: readonly number[],
  spans: readonly Span[],
): Promise<LatencyBucket[]> {
  const out: LatencyBucket[] = [];
  for (const level of rollupLevels) {
    const mine = spans.filter((s) => s.level === level);
    for (const ids of chunks(monitorIds, ID_CHUNK)) {
      for (const part of chunks(mine, SPAN_CHUNK)) {
        const rows = await db
          .selectFrom(tableOf(level))
          .select([
            'monitor_id',
            'bucket',
            'latency_sketch',
            'latency_count',
            'latency_min_us',
            'latency_max_us',
          ])
          .where('monitor_id', 'in', ids)
          .where('latency_count', '>', 0)
          .where((eb) =>
            eb.or(part.map((s) => eb.and([eb('bucket', '>=', s.from), eb('bucket', '<=', s.to)]))),
          )
          .execute();
        for (const r of rows) {
          out.push({
            monitorId: Number(r.monitor_id),
            bucket: Number(r.bucket),
            sketch: r.latency_sketch,
            latencyCount: Number(r.latency_count),
            latencyMinUs: r.latency_min_us === null ? null : Number(r.latency_min_us),
            latencyMaxUs: r.latency_max_us === null ? null : Number(r.latency_max_us),
          });
        }
      }
    }
  }
  return out;
}
