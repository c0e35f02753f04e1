import type { CheckResult, MonitorStatus, StatsBucket } from '@pagewatch/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { RecentEntry } from '../../domain/monitor.js';
import { hourBucket } from '../../domain/windows.js';
import type { CheckRun } from '../../domain/check-run.js';
import { decodeOutcome, encodeOutcome, iso, isoOrNull, toMs, toUs } from '../codecs.js';
import type { CheckResultsTable, DB, RollupHourTable } from '../schema.js';

/** One check to persist with the monitor state it led to. */
export interface ResultWrite {
  monitorId: number;
  at: number;
  run: CheckRun;
  status: MonitorStatus;
  failures: number;
  recent: RecentEntry[];
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
}

const resultColumns = [
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
  'http_status',
  'error_code',
  'error_message',
  'response_size',
  'cert_expires_at',
] as const;

type ResultRow = Pick<Selectable<CheckResultsTable>, (typeof resultColumns)[number]>;

function toResult(r: ResultRow): CheckResult {
  return {
    id: Number(r.id),
    monitorId: r.monitor_id,
    at: iso(r.at),
    outcome: decodeOutcome(r.outcome),
    latencyMs: toMs(r.latency_us),
    phases: {
      dns: toMs(r.dns_us),
      connect: toMs(r.connect_us),
      tls: toMs(r.tls_us),
      ttfb: toMs(r.ttfb_us),
      download: toMs(r.download_us),
    },
    httpStatus: r.http_status,
    errorCode: r.error_code as CheckResult['errorCode'],
    errorMessage: r.error_message,
    responseSize: r.response_size,
    certExpiresAt: isoOrNull(r.cert_expires_at),
  };
}

type RollupDelta = RollupHourTable;

/** Folds a batch into one rollup delta per monitor and hour, so each is upserted once. */
function rollupDeltas(writes: readonly ResultWrite[]): RollupDelta[] {
  const byKey = new Map<string, RollupDelta>();
  for (const w of writes) {
    const bucket = hourBucket(w.at);
    const key = `${w.monitorId}:${bucket}`;
    let d = byKey.get(key);
    if (!d) {
      d = {
        monitor_id: w.monitorId,
        bucket,
        checks: 0,
        up: 0,
        degraded: 0,
        down: 0,
        latency_sum_us: 0,
        latency_count: 0,
        latency_min_us: null,
        latency_max_us: null,
      };
      byKey.set(key, d);
    }
    d.checks += 1;
    d[w.run.outcome] += 1;
    const us = toUs(w.run.latencyMs);
    if (us !== null && w.run.outcome !== 'down') {
      d.latency_sum_us += us;
      d.latency_count += 1;
      d.latency_min_us = d.latency_min_us === null ? us : Math.min(d.latency_min_us, us);
      d.latency_max_us = d.latency_max_us === null ? us : Math.max(d.latency_max_us, us);
    }
  }
  return [...byKey.values()];
}

export interface InsertedResult {
  write: ResultWrite;
  result: CheckResult;
}

export function resultsRepository(db: Kysely<DB>, engine: 'sqlite' | 'postgres') {
  const least = engine === 'sqlite' ? 'min' : 'least';
  const greatest = engine === 'sqlite' ? 'max' : 'greatest';

  async function writeOne(trx: Transaction<DB>, w: ResultWrite): Promise<CheckResult> {
    const { run } = w;
    const row = await trx
      .insertInto('check_results')
      .values({
        monitor_id: w.monitorId,
        at: w.at,
        outcome: encodeOutcome(run.outcome),
        latency_us: toUs(run.latencyMs),
        dns_us: toUs(run.phases.dns),
        connect_us: toUs(run.phases.connect),
        tls_us: toUs(run.phases.tls),
        ttfb_us: toUs(run.phases.ttfb),
        download_us: toUs(run.phases.download),
        http_status: run.httpStatus,
        error_code: run.errorCode,
        error_message: run.errorMessage,
        response_size: run.responseSize,
        cert_expires_at: run.certExpiresAt,
      })
      .returning(resultColumns)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('monitors')
      .set({
        status: w.status,
        failures: w.failures,
        last_check_at: w.at,
        last_outcome: encodeOutcome(run.outcome),
        last_latency_us: toUs(run.latencyMs),
        last_http_status: run.httpStatus,
        last_error_code: run.errorCode,
        last_error_message: run.errorMessage,
        recent: JSON.stringify(w.recent.map(([o, ms]) => [encodeOutcome(o), toUs(ms)])),
        ...(w.flip ? { status_changed_at: w.at } : {}),
      })
      .where('id', '=', w.monitorId)
      .execute();
    if (w.flip) {
      await trx
        .insertInto('status_flips')
        .values({
          monitor_id: w.monitorId,
          at: w.at,
          from_status: w.flip.from,
          to_status: w.flip.to,
          error_code: run.errorCode,
          message: run.errorMessage,
        })
        .execute();
    }
    return toResult(row);
  }

  async function upsertRollups(trx: Transaction<DB>, deltas: RollupDelta[]): Promise<void> {
    for (const d of deltas) {
      await trx
        .insertInto('rollup_hour')
        .values(d)
        .onConflict((oc) =>
          oc.columns(['monitor_id', 'bucket']).doUpdateSet({
            checks: sql`rollup_hour.checks + excluded.checks`,
            up: sql`rollup_hour.up + excluded.up`,
            degraded: sql`rollup_hour.degraded + excluded.degraded`,
            down: sql`rollup_hour.down + excluded.down`,
            latency_sum_us: sql`rollup_hour.latency_sum_us + excluded.latency_sum_us`,
            latency_count: sql`rollup_hour.latency_count + excluded.latency_count`,
            latency_min_us: sql`${sql.raw(least)}(coalesce(rollup_hour.latency_min_us, excluded.latency_min_us), coalesce(excluded.latency_min_us, rollup_hour.latency_min_us))`,
            latency_max_us: sql`${sql.raw(greatest)}(coalesce(rollup_hour.latency_max_us, excluded.latency_max_us), coalesce(excluded.latency_max_us, rollup_hour.latency_max_us))`,
          }),
        )
        .execute();
    }
  }

  return {
    /**
     * Stores results, the monitors' new state, flips and rollups in one transaction:
     * a status change is never recorded without the result that caused it.
     */
    async writeBatch(writes: readonly ResultWrite[]): Promise<InsertedResult[]> {
      return db.transaction().execute(async (trx) => {
        const out: InsertedResult[] = [];
        for (const w of writes) out.push({ write: w, result: await writeOne(trx, w) });
        await upsertRollups(trx, rollupDeltas(writes));
        return out;
      });
    },

    async page(monitorId: number, limit: number, before?: number) {
      let q = db
        .selectFrom('check_results')
        .select(resultColumns)
        .where('monitor_id', '=', monitorId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (before !== undefined) q = q.where('id', '<', before);
      const rows = await q.execute();
      const items = rows.slice(0, limit).map(toResult);
      return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
    },

    /** Counts by outcome and the sorted latencies (ms) of delivered checks in [from, to]. */
    async summary(monitorId: number, from: number, to: number) {
      const counts = await db
        .selectFrom('check_results')
        .select((eb) => ['outcome', eb.fn.countAll<number>().as('n')])
        .where('monitor_id', '=', monitorId)
        .where('at', '>=', from)
        .where('at', '<=', to)
        .groupBy('outcome')
        .execute();
      const latencies = await db
        .selectFrom('check_results')
        .select('latency_us')
        .where('monitor_id', '=', monitorId)
        .where('at', '>=', from)
        .where('at', '<=', to)
        .where('outcome', '!=', encodeOutcome('down'))
        .where('latency_us', 'is not', null)
        .orderBy('latency_us')
        .execute();
      const byOutcome = { up: 0, degraded: 0, down: 0 };
      for (const c of counts) byOutcome[decodeOutcome(c.outcome)] += Number(c.n);
      return { ...byOutcome, latenciesMs: latencies.map((l) => (l.latency_us ?? 0) / 1000) };
    },

    async series(
      monitorId: number,
      from: number,
      to: number,
      bucketMs: number,
    ): Promise<StatsBucket[]> {
      // A literal divisor keeps this integer division on both engines.
      const bucket = sql<number>`(at / ${sql.lit(bucketMs)}) * ${sql.lit(bucketMs)}`;
      const ok = sql`case when outcome <> ${sql.lit(encodeOutcome('down'))}`;
      const avg = (col: string) => sql<number | null>`avg(${ok} then ${sql.ref(col)} end) / 1000.0`;
      const rows = await db
        .selectFrom('check_results')
        .select((eb) => [
          bucket.as('t'),
          eb.fn.countAll<number>().as('checks'),
          sql<number>`sum(case when outcome = 0 then 1 else 0 end)`.as('up'),
          sql<number>`sum(case when outcome = 1 then 1 else 0 end)`.as('degraded'),
          sql<number>`sum(case when outcome = 2 then 1 else 0 end)`.as('down'),
          avg('latency_us').as('latency'),
          avg('dns_us').as('dns'),
          avg('connect_us').as('connect'),
          avg('tls_us').as('tls'),
          avg('ttfb_us').as('ttfb'),
          avg('download_us').as('download'),
        ])
        .where('monitor_id', '=', monitorId)
        .where('at', '>=', from)
        .where('at', '<=', to)
        .groupBy(bucket)
        .orderBy(bucket)
        .execute();
      const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);
      return rows.map((r) => ({
        t: Number(r.t),
        checks: Number(r.checks),
        up: Number(r.up),
        degraded: Number(r.degraded),
        down: Number(r.down),
        latency: round(r.latency),
        dns: round(r.dns),
        connect: round(r.connect),
        tls: round(r.tls),
        ttfb: round(r.ttfb),
        download: round(r.download),
      }));
    },
  };
}

export type ResultsRepository = ReturnType<typeof resultsRepository>;
