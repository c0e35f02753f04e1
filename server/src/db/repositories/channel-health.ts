import type { AlertEvent } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { insertFor } from './deliveries.js';
import { insertForContacts } from './escalation-targets.js';

/** A channel's delivery health as stored (ADR 62). */
export interface ChannelHealthRow {
  name: string;
  consecutiveFailures: number;
  failThreshold: number;
  fallbackChannelId: number | null;
  lastError: string | null;
}

const columns = [
  'name',
  'consecutive_failures',
  'fail_threshold',
  'fallback_channel_id',
  'last_error',
] as const;

function toRow(r: {
  name: string;
  consecutive_failures?: number | null;
  fail_threshold?: number | null;
  fallback_channel_id?: number | null;
  last_error?: string | null;
}): ChannelHealthRow {
  return {
    name: r.name,
    consecutiveFailures: Number(r.consecutive_failures ?? 0),
    failThreshold: Number(r.fail_threshold ?? 3),
    fallbackChannelId: r.fallback_channel_id == null ? null : Number(r.fallback_channel_id),
    lastError: r.last_error ?? null,
  };
}

export function channelHealthRepository(db: Kysely<DB>) {
  return {
    /** One more failure in a row, atomically: the answer is the count this failure made. */
    async recordFailure(channelId: number, error: string): Promise<ChannelHealthRow | null> {
      const row = await db
        .updateTable('notification_channels')
        .set((eb) => ({
          consecutive_failures: eb('consecutive_failures', '+', 1),
          last_error: error,
        }))
        .where('id', '=', channelId)
        .returning(columns)
        .executeTakeFirst();
      return row ? toRow(row) : null;
    },

    async read(channelId: number): Promise<ChannelHealthRow | null> {
      const row = await db
        .selectFrom('notification_channels')
        .select(columns)
        .where('id', '=', channelId)
        .executeTakeFirst();
      return row ? toRow(row) : null;
    },

    /** Resets the count if it still is `seen`; true when this call did it. */
    async resetIf(channelId: number, seen: number): Promise<boolean> {
      const res = await db
        .updateTable('notification_channels')
        .set({ consecutive_failures: 0, last_error: null })
        .where('id', '=', channelId)
        .where('consecutive_failures', '=', seen)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /**
     * Queues a notice for every active admin's (and owner's) verified contact methods, at once
     * (ADR 68: a failing channel with no fallback). Returns how many rows were queued: 0 when
     * no admin has a verified contact method.
     */
    async queueForAdmins(
      orderKey: string,
      row: { event: AlertEvent; key: string },
      now: number,
    ): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const contacts = await trx
          .selectFrom('users as u')
          .innerJoin('contact_methods as c', 'c.user_id', 'u.id')
          .select(['u.id as user_id', 'c.id as contact_id'])
          .where('u.disabled', '=', 0)
          .where('u.role', 'in', ['admin', 'owner'])
          .where('c.verified_at', 'is not', null)
          .orderBy('c.id')
          .execute();
        return insertForContacts(
          trx,
          contacts.map((c) => ({ userId: Number(c.user_id), contactId: Number(c.contact_id) })),
          { event: row.event, key: row.key, orderKey, monitorId: null },
          now,
          { severity: 'critical', policyWindows: [] },
        );
      });
    },

    /** Queues events for a fallback channel in one stream per failing channel, in one go. */
    async queueFor(
      fallbackId: number,
      orderKey: string,
      rows: readonly { event: AlertEvent; key: string }[],
      now: number,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const { event, key } of rows)
          await insertFor(trx, [fallbackId], { event, key, orderKey, monitorId: null }, now);
      });
    },
  };
}

export type ChannelHealthRepository = ReturnType<typeof channelHealthRepository>;
