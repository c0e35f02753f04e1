import type {
  AlertEvent,
  ChannelKind,
  Delivery,
  DeliveryPage,
  DeliveryQuery,
  DeliveryState,
} from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import { iso, isoOrNull } from '../codecs.js';
import type { DB } from '../schema.js';

/** A delivery row as a test or the worker writes it (the outbox itself is the dispatcher's). */
export interface DeliveryRowInput {
  channelId: number;
  monitorId: number | null;
  event: AlertEvent;
  state: DeliveryState;
  attempts?: number;
  nextAttemptAt?: number | null;
  leaseUntil?: number | null;
  lastError?: string | null;
  createdAt: number;
  sentAt?: number | null;
}

export type RetryOutcome = 'retrying' | 'not_found' | 'not_retryable' | 'leased';

/** The delivery history people read, and "retry now"; sending is the dispatcher's. */
export function deliveryLogRepository(db: Kysely<DB>) {
  const select = () =>
    db
      .selectFrom('deliveries as d')
      .leftJoin('notification_channels as c', 'c.id', 'd.channel_id')
      .select([
        'd.id',
        'd.channel_id',
        'c.name as channel_name',
        'c.kind as channel_kind',
        'd.payload',
        'd.state',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_error',
        'd.created_at',
        'd.sent_at',
      ])
      // Status-page subscriber notices are not channel alerts and carry another payload.
      .where('d.subscriber_id', 'is', null);

  type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
  const toDelivery = (r: Row): Delivery => ({
    id: r.id,
    channel:
      r.channel_id === null || r.channel_name === null
        ? null
        : { id: r.channel_id, name: r.channel_name, kind: r.channel_kind as ChannelKind },
    event: JSON.parse(r.payload) as AlertEvent,
    state: r.state as DeliveryState,
    attempts: r.attempts,
    nextAttemptAt: isoOrNull(r.next_attempt_at),
    lastError: r.last_error,
    createdAt: iso(r.created_at),
    sentAt: isoOrNull(r.sent_at),
  });

  return {
    /** Newest first; `before` is the id cursor of the previous page. */
    async page(q: DeliveryQuery): Promise<DeliveryPage> {
      let query = select()
        .orderBy('d.id', 'desc')
        .limit(q.limit + 1);
      if (q.channelId !== undefined) query = query.where('d.channel_id', '=', q.channelId);
      if (q.monitorId !== undefined) query = query.where('d.monitor_id', '=', q.monitorId);
      if (q.state !== undefined) query = query.where('d.state', '=', q.state);
      if (q.before !== undefined) query = query.where('d.id', '<', q.before);
      const rows = await query.execute();
      const page = rows.slice(0, q.limit);
      return {
        items: page.map(toDelivery),
        nextCursor: rows.length > q.limit && page.length > 0 ? page.at(-1)!.id : null,
      };
    },

    async findById(id: number): Promise<Delivery | null> {
      const row = await select().where('d.id', '=', id).executeTakeFirst();
      return row ? toDelivery(row) : null;
    },

    async insert(d: DeliveryRowInput): Promise<number> {
      const { id } = await db
        .insertInto('deliveries')
        .values({
          channel_id: d.channelId,
          subscriber_id: null,
          monitor_id: d.monitorId,
          order_key: d.monitorId === null ? `c:${d.channelId}` : `m:${d.monitorId}`,
          event_kind: d.event.kind,
          payload: JSON.stringify(d.event),
          state: d.state,
          attempts: d.attempts ?? 0,
          next_attempt_at: d.nextAttemptAt ?? null,
          lease_until: d.leaseUntil ?? null,
          leased_by: d.leaseUntil ? 'test' : null,
          last_error: d.lastError ?? null,
          created_at: d.createdAt,
          sent_at: d.sentAt ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /**
     * Sends a failed or retrying delivery again at the next worker pass. The attempts already
     * made stay counted, except that a `failed` row gets one attempt back (attempts − 1) so
     * the worker makes exactly one more try before giving up again. A row a worker holds right
     * now (lease in the future) is left alone: clearing its lease could send it twice.
     */
    async retryNow(id: number, now: number): Promise<RetryOutcome> {
      const row = await db
        .selectFrom('deliveries')
        .select(['state', 'lease_until'])
        .where('id', '=', id)
        .where('subscriber_id', 'is', null)
        .executeTakeFirst();
      if (!row) return 'not_found';
      if (row.state !== 'failed' && row.state !== 'retrying') return 'not_retryable';
      if (row.lease_until !== null && row.lease_until > now) return 'leased';
      const res = await db
        .updateTable('deliveries')
        .set((eb) => ({
          state: 'retrying',
          next_attempt_at: now,
          lease_until: null,
          leased_by: null,
          attempts:
            row.state === 'failed'
              ? eb
                  .case()
                  .when('attempts', '>', 0)
                  .then(eb('attempts', '-', 1))
                  .else(0)
                  .end()
              : eb.ref('attempts'),
        }))
        .where('id', '=', id)
        .where('state', '=', row.state)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0 ? 'retrying' : 'leased';
    },
  };
}

export type DeliveryLogRepository = ReturnType<typeof deliveryLogRepository>;
