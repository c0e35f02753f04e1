import type { Kysely, Selectable } from 'kysely';
import type { DB, ReportLinksTable, ReportSchedulesTable } from '../schema.js';

export type ReportScheduleRow = Selectable<ReportSchedulesTable>;
export type ReportLinkRow = Selectable<ReportLinksTable>;
export type ScheduleValues = Omit<ReportScheduleRow, 'id'>;
export type LinkValues = Omit<ReportLinkRow, 'id'>;

export interface DeliveryRow {
  id: number;
  scheduleId: number;
  period: string;
  recipient: string;
  attempts: number;
  nextAttemptAt: number;
}

export interface PeriodTally {
  period: string;
  sent: number;
  pending: number;
  failed: number;
  lastError: string | null;
}

/** Report schedules, their delivery outbox, and customer links (ADR 65). */
export function reportDeliveryRepository(db: Kysely<DB>) {
  return {
    async schedules(): Promise<ReportScheduleRow[]> {
      return db.selectFrom('report_schedules').selectAll().orderBy('id').execute();
    },

    async schedule(id: number): Promise<ReportScheduleRow | null> {
      const row = await db
        .selectFrom('report_schedules')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ?? null;
    },

    async insertSchedule(v: ScheduleValues): Promise<number> {
      const row = await db
        .insertInto('report_schedules')
        .values(v)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async updateSchedule(id: number, v: Partial<ScheduleValues>): Promise<void> {
      await db.updateTable('report_schedules').set(v).where('id', '=', id).execute();
    },

    async removeSchedule(id: number): Promise<boolean> {
      await db.deleteFrom('report_deliveries').where('schedule_id', '=', id).execute();
      const r = await db.deleteFrom('report_schedules').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /**
     * Queues a month's messages and moves the schedule past it, in one transaction and only if
     * the schedule still stood at `after`: a month is queued once, whoever looks.
     */
    async queueMonth(
      scheduleId: number,
      after: string,
      period: string,
      recipients: readonly string[],
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const moved = await tx
          .updateTable('report_schedules')
          .set({ queued_through: period })
          .where('id', '=', scheduleId)
          .where('queued_through', '=', after)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) return false;
        if (recipients.length > 0) {
          await tx
            .insertInto('report_deliveries')
            .values(
              recipients.map((recipient) => ({
                schedule_id: scheduleId,
                period,
                recipient,
                attempts: 0,
                next_attempt_at: now,
                created_at: now,
              })),
            )
            .onConflict((oc) => oc.columns(['schedule_id', 'period', 'recipient']).doNothing())
            .execute();
        }
        return true;
      });
    },

    /** Messages due now, oldest first. */
    async due(now: number, limit = 200): Promise<DeliveryRow[]> {
      const rows = await db
        .selectFrom('report_deliveries')
        .select(['id', 'schedule_id', 'period', 'recipient', 'attempts', 'next_attempt_at'])
        .where('sent_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        scheduleId: Number(r.schedule_id),
        period: r.period,
        recipient: r.recipient,
        attempts: Number(r.attempts),
        nextAttemptAt: Number(r.next_attempt_at),
      }));
    },

    /**
     * Takes due messages for sending until `until`, those no one else took since they were
     * read, in one statement: two senders (a lease changing hands mid-send) never both send
     * one, and a schedule's month read by both goes to one of them whole, so its report is
     * built once and its audit entry names all its recipients.
     */
    async claim(rows: DeliveryRow[], until: number): Promise<DeliveryRow[]> {
      if (rows.length === 0) return [];
      const taken = await db
        .updateTable('report_deliveries')
        .set({ next_attempt_at: until })
        .where((eb) =>
          eb.or(
            rows.map((d) =>
              eb.and([eb('id', '=', d.id), eb('next_attempt_at', '=', d.nextAttemptAt)]),
            ),
          ),
        )
        .where('sent_at', 'is', null)
        .where('gave_up_at', 'is', null)
        .returning('id')
        .execute();
      const ids = new Set(taken.map((r) => Number(r.id)));
      return rows.filter((d) => ids.has(d.id));
    },

    async markSent(id: number, now: number): Promise<void> {
      await db
        .updateTable('report_deliveries')
        .set((eb) => ({ sent_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
        .where('id', '=', id)
        .execute();
    },

    async markFailed(id: number, error: string, retryAt: number | null, now: number) {
      await db
        .updateTable('report_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_error: error.slice(0, 500),
          ...(retryAt === null ? { gave_up_at: now } : { next_attempt_at: retryAt }),
        }))
        .where('id', '=', id)
        .execute();
    },

    /** Per schedule, its latest queued month's messages: sent, waiting, given up. */
    async tallies(): Promise<Map<number, PeriodTally>> {
      const rows = await db
        .selectFrom('report_deliveries')
        .select(['schedule_id', 'period', 'sent_at', 'gave_up_at', 'last_error'])
        .orderBy('id')
        .execute();
      const latest = new Map<number, string>();
      for (const r of rows) {
        const s = Number(r.schedule_id);
        if ((latest.get(s) ?? '') < r.period) latest.set(s, r.period);
      }
      const out = new Map<number, PeriodTally>();
      for (const r of rows) {
        const s = Number(r.schedule_id);
        if (latest.get(s) !== r.period) continue;
        const t = out.get(s) ?? {
          period: r.period,
          sent: 0,
          pending: 0,
          failed: 0,
          lastError: null,
        };
        if (r.sent_at !== null) t.sent += 1;
        else if (r.gave_up_at !== null) t.failed += 1;
        else t.pending += 1;
        if (r.sent_at === null && r.last_error) t.lastError = r.last_error;
        out.set(s, t);
      }
      return out;
    },

    async links(): Promise<ReportLinkRow[]> {
      return db.selectFrom('report_links').selectAll().orderBy('id', 'desc').execute();
    },

    async link(id: number): Promise<ReportLinkRow | null> {
      const row = await db
        .selectFrom('report_links')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ?? null;
    },

    async linkByHash(hash: string): Promise<ReportLinkRow | null> {
      const row = await db
        .selectFrom('report_links')
        .selectAll()
        .where('token_hash', '=', hash)
        .executeTakeFirst();
      return row ?? null;
    },

    async insertLink(v: LinkValues): Promise<number> {
      const row = await db
        .insertInto('report_links')
        .values(v)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async revokeLink(id: number, now: number): Promise<void> {
      await db
        .updateTable('report_links')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async linkViewed(id: number, now: number): Promise<void> {
      await db
        .updateTable('report_links')
        .set({ last_viewed_at: now })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type ReportDeliveryRepository = ReturnType<typeof reportDeliveryRepository>;
