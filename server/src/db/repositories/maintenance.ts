import { MaintenanceSchedule, MaintenanceScope, type MaintenanceInput } from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import type { MaintenanceRecord } from '../../domain/maintenance/window.js';
import type { OutboxSignal } from '../../lib/outbox-signal.js';
import type { DB, MaintenanceWindowsTable } from '../schema.js';
import { noticeSubscribers, type NoticeBuilder } from './status-subscribers.js';

/** Subscribers to tell about a change, decided by the service; sent with the change. */
export interface MaintenanceNotice {
  monitorIds: readonly number[] | 'all';
  build: (windowId: number) => NoticeBuilder;
}

const columns = [
  'id',
  'title',
  'description',
  'timezone',
  'scope',
  'schedule',
  'cancelled_at',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
] as const;

type Row = Pick<Selectable<MaintenanceWindowsTable>, (typeof columns)[number]>;

function toRecord(r: Row): MaintenanceRecord {
  return {
    id: Number(r.id),
    title: r.title,
    description: r.description,
    timezone: r.timezone,
    // Written from validated input only; parsing again restores defaults and types.
    scope: MaintenanceScope.parse(JSON.parse(r.scope)),
    schedule: MaintenanceSchedule.parse(JSON.parse(r.schedule)),
    cancelledAt: r.cancelled_at === null ? null : Number(r.cancelled_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    createdBy: r.created_by,
    updatedBy: r.updated_by,
  };
}

const definition = (input: MaintenanceInput) => ({
  title: input.title,
  description: input.description,
  timezone: input.timezone,
  scope: JSON.stringify(input.scope),
  schedule: JSON.stringify(input.schedule),
});

export function maintenanceRepository(db: Kysely<DB>, outbox?: OutboxSignal) {
  /** Queues a window's notices in its transaction; the count tells whether to wake the notifier. */
  const tell = (
    trx: Kysely<DB>,
    notice: MaintenanceNotice | null | undefined,
    id: number,
    now: number,
  ) =>
    notice ? noticeSubscribers(trx, notice.monitorIds, notice.build(id), now) : Promise.resolve(0);
  const ring = (queued: number) => {
    if (queued > 0) outbox?.notify();
  };

  const byId = (id: number) =>
    db.selectFrom('maintenance_windows').select(columns).where('id', '=', id);

  return {
    async list(): Promise<MaintenanceRecord[]> {
      const rows = await db
        .selectFrom('maintenance_windows')
        .select(columns)
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async findById(id: number): Promise<MaintenanceRecord | null> {
      const row = await byId(id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async insert(
      input: MaintenanceInput,
      now: number,
      by: string | null,
      notice?: MaintenanceNotice | null,
    ): Promise<MaintenanceRecord> {
      const { id, queued } = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('maintenance_windows')
          .values({
            ...definition(input),
            created_at: now,
            updated_at: now,
            created_by: by,
            updated_by: by,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: Number(row.id), queued: await tell(trx, notice, Number(row.id), now) };
      });
      ring(queued);
      return toRecord(await byId(id).executeTakeFirstOrThrow());
    },

    async replace(
      id: number,
      input: MaintenanceInput,
      now: number,
      by: string | null,
      notice?: MaintenanceNotice | null,
    ): Promise<MaintenanceRecord | null> {
      const queued = await db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('maintenance_windows')
          .set({ ...definition(input), updated_at: now, updated_by: by })
          .where('id', '=', id)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) > 0 ? tell(trx, notice, id, now) : 0;
      });
      ring(queued);
      const row = await byId(id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** Marks a window cancelled; false when it does not exist or already was. */
    async cancel(
      id: number,
      now: number,
      by: string | null,
      notice?: MaintenanceNotice | null,
    ): Promise<boolean> {
      const { done, queued } = await db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('maintenance_windows')
          .set({ cancelled_at: now, updated_at: now, updated_by: by })
          .where('id', '=', id)
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        const changed = Number(r.numUpdatedRows) > 0;
        return { done: changed, queued: changed ? await tell(trx, notice, id, now) : 0 };
      });
      ring(queued);
      return done;
    },

    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('maintenance_windows').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type MaintenanceRepository = ReturnType<typeof maintenanceRepository>;
