import type { Kysely } from 'kysely';
import type { RollupLevel } from '../../domain/rollup.js';
import type { DB } from '../schema.js';
import { rollupTables } from './rollups.js';

/**
 * Bounded deletes of expired history. Each call is one short statement on the primary key or
 * the (monitor, time) index, so it never holds the write lock long enough to stall the result
 * writer; the retention job calls them in a loop with pauses in between.
 */
export function retentionRepository(db: Kysely<DB>) {
  return {
    async monitorIds(): Promise<number[]> {
      const rows = await db.selectFrom('monitors').select('id').orderBy('id').execute();
      return rows.map((r) => Number(r.id));
    },

    /** Deletes up to `limit` raw results of these monitors taken before `before`. */
    async deleteResults(monitorIds: readonly number[], before: number, limit: number) {
      if (monitorIds.length === 0) return 0;
      const res = await db
        .deleteFrom('check_results')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('check_results')
            .select('id')
            .where('monitor_id', 'in', monitorIds)
            .where('at', '<', before)
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Deletes up to `limit` buckets of these monitors that start before `before`. */
    async deleteRollups(
      level: RollupLevel,
      monitorIds: readonly number[],
      before: number,
      limit: number,
    ) {
      if (monitorIds.length === 0) return 0;
      // One shape for the three tables, as in rollups.ts.
      const table = rollupTables[level] as 'rollup_hour';
      const res = await db
        .deleteFrom(table)
        .where((eb) =>
          eb(
            eb.refTuple('monitor_id', 'bucket'),
            'in',
            eb
              .selectFrom(table)
              .select(['monitor_id', 'bucket'])
              .where('monitor_id', 'in', monitorIds)
              .where('bucket', '<', before)
              .limit(limit)
              .$asTuple('monitor_id', 'bucket'),
          ),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type RetentionRepository = ReturnType<typeof retentionRepository>;
