import { sql, type Kysely } from 'kysely';
import type {
  BucketFigures,
  RollupLevel,
  SketchSource,
  Span,
  StoredRollup,
} from '../../domain/rollup.js';
import type { DB } from '../schema.js';
import { summedColumns, tableOf } from './rollups.js';

type Num = number | string | null;
type FigureRow = Record<(typeof summedColumns)[number], Num> & {
  bucket: Num;
  latency_min_us: Num;
  latency_max_us: Num;
};

const n = (v: Num): number => Number(v ?? 0);
const nOrNull = (v: Num): number | null => (v === null ? null : Number(v));

function toFigures(r: FigureRow): BucketFigures {
  return {
    bucket: n(r.bucket),
    checks: n(r.checks),
    up: n(r.up),
    degraded: n(r.degraded),
    down: n(r.down),
    latencySumUs: n(r.latency_sum_us),
    latencyCount: n(r.latency_count),
    latencyMinUs: nOrNull(r.latency_min_us),
    latencyMaxUs: nOrNull(r.latency_max_us),
    phases: {
      dns: { sumUs: n(r.dns_sum_us), count: n(r.dns_count) },
      connect: { sumUs: n(r.connect_sum_us), count: n(r.connect_count) },
      tls: { sumUs: n(r.tls_sum_us), count: n(r.tls_count) },
      ttfb: { sumUs: n(r.ttfb_sum_us), count: n(r.ttfb_count) },
      download: { sumUs: n(r.download_sum_us), count: n(r.download_count) },
    },
  };
}

const sketchColumns = [
  'latency_sketch',
  'latency_count',
  'latency_min_us',
  'latency_max_us',
] as const;

/** Reads of the minute, hour and day rollups. */
export function rollupsRepository(db: Kysely<DB>) {
  const range = (level: RollupLevel, monitorId: number, from: number, to: number) =>
    db
      .selectFrom(tableOf(level))
      .where('monitor_id', '=', monitorId)
      .where('bucket', '>=', from)
      .where('bucket', '<=', to);

  return {
    /** A monitor's buckets of one level starting within [from, to], oldest first. */
    async read(
      level: RollupLevel,
      monitorId: number,
      from: number,
      to: number,
    ): Promise<StoredRollup[]> {
      const rows = await range(level, monitorId, from, to)
        .select(['bucket', 'latency_min_us', 'latency_max_us', ...summedColumns])
        .select('latency_sketch')
        .orderBy('bucket')
        .execute();
      return rows.map((r) => ({ ...toFigures(r), sketch: r.latency_sketch }));
    },

    /**
     * A monitor's figures summed into chart buckets of `bucketMs` (a multiple of the level) by
     * the database: a 24 h window returns 96 rows rather than 1,440.
     */
    async buckets(
      level: RollupLevel,
      monitorId: number,
      from: number,
      to: number,
      bucketMs: number,
    ): Promise<BucketFigures[]> {
      // A literal divisor keeps this integer division on both engines.
      const t = sql<number>`(bucket / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
      const rows = await range(level, monitorId, from, to)
        .select((eb) => [
          t.as('bucket'),
          eb.fn.min('latency_min_us').as('latency_min_us'),
          eb.fn.max('latency_max_us').as('latency_max_us'),
          ...summedColumns.map((c) => eb.fn.sum<number>(c).as(c)),
        ])
        .groupBy(t)
        .orderBy(t)
        .execute();
      return rows.map(toFigures);
    },

    /** What the percentiles of these spans are merged from: one row per stored bucket. */
    async sketches(monitorId: number, spans: readonly Span[]): Promise<SketchSource[]> {
      const out: SketchSource[] = [];
      for (const span of spans) {
        const rows = await range(span.level, monitorId, span.from, span.to)
          .select(sketchColumns)
          .where('latency_count', '>', 0)
          .execute();
        for (const r of rows) {
          out.push({
            sketch: r.latency_sketch,
            latencyCount: Number(r.latency_count),
            latencyMinUs: nOrNull(r.latency_min_us),
            latencyMaxUs: nOrNull(r.latency_max_us),
          });
        }
      }
      return out;
    },
  };
}

export type RollupsRepository = ReturnType<typeof rollupsRepository>;
