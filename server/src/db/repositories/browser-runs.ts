import { BrowserMeasurements, type BrowserRun } from '@pagewatch/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CheckRun } from '../../domain/check-run.js';
import { decodeOutcome, encodeOutcome, iso } from '../codecs.js';
import type { DB } from '../schema.js';

/**
 * Stores a browser check's measurements beside its result, in the result's transaction. A
 * success's screenshot replaces the previous success's: failures keep theirs (up to the
 * retention cap), successes only the latest.
 */
export async function writeBrowserRun(
  trx: Transaction<DB>,
  resultId: number,
  monitorId: number,
  at: number,
  run: CheckRun,
): Promise<void> {
  if (!run.browser) return;
  const { measurements, screenshot } = run.browser;
  await trx
    .insertInto('browser_runs')
    .values({
      result_id: resultId,
      monitor_id: monitorId,
      at,
      outcome: encodeOutcome(run.outcome),
      measurements: JSON.stringify(measurements),
      screenshot: screenshot ? Buffer.from(screenshot) : null,
    })
    .execute();
  if (run.outcome === 'up' && screenshot) {
    await trx
      .updateTable('browser_runs')
      .set({ screenshot: null })
      .where('monitor_id', '=', monitorId)
      .where('outcome', '=', encodeOutcome('up'))
      .where('result_id', '<', resultId)
      .where('screenshot', 'is not', null)
      .execute();
  }
}

export function browserRunsRepository(db: Kysely<DB>) {
  return {
    /** The latest browser checks of a monitor, newest first. */
    async list(monitorId: number, limit: number): Promise<BrowserRun[]> {
      const rows = await db
        .selectFrom('browser_runs as b')
        .innerJoin('check_results as r', 'r.id', 'b.result_id')
        .select([
          'b.result_id',
          'b.at',
          'b.outcome',
          'b.measurements',
          'r.error_code',
          'r.error_message',
          sql<number>`case when b.screenshot is null then 0 else 1 end`.as('has_shot'),
        ])
        .where('b.monitor_id', '=', monitorId)
        .orderBy('b.result_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ...BrowserMeasurements.parse(JSON.parse(r.measurements)),
        checkId: Number(r.result_id),
        at: iso(Number(r.at)),
        outcome: decodeOutcome(r.outcome),
        errorCode: r.error_code as BrowserRun['errorCode'],
        errorMessage: r.error_message,
        hasScreenshot: Number(r.has_shot) === 1,
      }));
    },

    /** The JPEG kept with a check of this monitor, or null. */
    async screenshot(monitorId: number, resultId: number): Promise<Buffer | null> {
      const row = await db
        .selectFrom('browser_runs')
        .select('screenshot')
        .where('result_id', '=', resultId)
        .where('monitor_id', '=', monitorId)
        .executeTakeFirst();
      return row?.screenshot ? Buffer.from(row.screenshot) : null;
    },

    /** Monitors of these holding more than `keep` screenshots. */
    async monitorsOverScreenshotCap(monitorIds: readonly number[], keep: number) {
      if (monitorIds.length === 0) return [];
      const rows = await db
        .selectFrom('browser_runs')
        .select('monitor_id')
        .where('monitor_id', 'in', monitorIds)
        .where('screenshot', 'is not', null)
        .groupBy('monitor_id')
        .having((eb) => eb.fn.countAll(), '>', keep)
        .execute();
      return rows.map((r) => r.monitor_id);
    },

    /** Drops the screenshots of a monitor beyond its newest `keep`; the measurements stay. */
    async trimScreenshots(monitorId: number, keep: number): Promise<number> {
      const cutoff = await db
        .selectFrom('browser_runs')
        .select('result_id')
        .where('monitor_id', '=', monitorId)
        .where('screenshot', 'is not', null)
        .orderBy('result_id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (!cutoff) return 0;
      const res = await db
        .updateTable('browser_runs')
        .set({ screenshot: null })
        .where('monitor_id', '=', monitorId)
        .where('result_id', '<=', cutoff.result_id)
        .where('screenshot', 'is not', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
  };
}

export type BrowserRunsRepository = ReturnType<typeof browserRunsRepository>;
