import type { Kysely } from 'kysely';
import type { CheckRun } from '../../domain/check-run.js';
import type { Engine } from '../database.js';
import { inIntegers } from '../dialect.js';
import type { DB } from '../schema.js';

/** A push ping or a check-now for the process that owns the monitor's partition. */
export type CheckRequest =
  | { kind: 'check'; monitorId: number; partition: number; at: number }
  | { kind: 'ping'; monitorId: number; partition: number; at: number; run: CheckRun };

/**
 * The hand-over of requests between processes (issue 14): whoever receives a request for a
 * monitor it does not schedule writes it here; the partition's owner claims it. A claim deletes
 * the rows it returns, so each request is taken by one process exactly once.
 */
export function checkRequestsRepository(db: Kysely<DB>, engine: Engine) {
  return {
    async enqueue(request: CheckRequest): Promise<void> {
      await db
        .insertInto('check_requests')
        .values({
          monitor_id: request.monitorId,
          partition: request.partition,
          kind: request.kind,
          run: request.kind === 'ping' ? JSON.stringify(request.run) : null,
          at: request.at,
        })
        .execute();
    },

    /**
     * Takes up to `limit` waiting requests of these partitions, oldest first. One read when
     * there are none (the common case), so polling never takes SQLite's write lock.
     */
    async claim(partitions: readonly number[], limit = 500): Promise<CheckRequest[]> {
      if (partitions.length === 0) return [];
      const waiting = await db
        .selectFrom('check_requests')
        .select('id')
        .where(inIntegers(engine, 'partition', partitions))
        .orderBy('id')
        .limit(limit)
        .execute();
      if (waiting.length === 0) return [];
      const rows = await db
        .deleteFrom('check_requests')
        .where(
          inIntegers(
            engine,
            'id',
            waiting.map((w) => Number(w.id)),
          ),
        )
        .returning(['id', 'monitor_id', 'partition', 'kind', 'run', 'at'])
        .execute();
      return rows
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((r) => {
          const base = {
            monitorId: Number(r.monitor_id),
            partition: Number(r.partition),
            at: Number(r.at),
          };
          return r.kind === 'ping' && r.run
            ? { ...base, kind: 'ping' as const, run: JSON.parse(r.run) as CheckRun }
            : { ...base, kind: 'check' as const };
        });
    },
  };
}

export type CheckRequestsRepository = ReturnType<typeof checkRequestsRepository>;
