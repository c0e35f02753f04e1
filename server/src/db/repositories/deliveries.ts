import type { AlertEvent, ChannelKind, Incident, MessageTemplate } from '@pagewatch/contract';
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { incidentAlert, type IncidentAlertKind } from '../../domain/alerting/index.js';
import type { DB } from '../schema.js';
import { quietRoutes, type QuietRoute } from './channel-quiet.js';

type Db = Kysely<DB> | Transaction<DB>;

/** States a delivery can still be sent from. */
const undelivered = ['queued', 'retrying'] as const;

/** One event for the outbox: who it is about and which stream it is ordered in. */
export interface OutboxEntry {
  event: AlertEvent;
  /** "m:<monitorId>" or "i:<incidentId>": deliveries with one key reach a channel in order. */
  orderKey: string;
  monitorId: number | null;
  /** The event's identity, the same in every process that could queue it; the channel is appended. */
  key: string;
}

/** Queues one row per channel; a row whose idempotency key exists already is not queued again. */
export async function insertFor(
  trx: Transaction<DB>,
  channelIds: number[],
  e: OutboxEntry,
  now: number,
  /** When the row may first be sent (quiet hours delay warnings, ADR 39); now by default. */
  sendAt: number = now,
) {
  if (channelIds.length === 0) return 0;
  const payload = JSON.stringify(e.event);
  // A channel's quiet hours may hold a warning or send it elsewhere (ADR 68); a reroute that
  // meets a channel already addressed is one row, not two, and that row is the channel's own
  // (it would have had the message anyway), so only a message that arrives there because of
  // the reroute says it was rerouted.
  const routes = new Map<number, QuietRoute>();
  for (const r of await quietRoutes(trx, channelIds, e.monitorId, sendAt)) {
    const had = routes.get(r.channelId);
    if (!had) routes.set(r.channelId, r);
    else
      routes.set(r.channelId, {
        channelId: r.channelId,
        sendAt: Math.min(had.sendAt, r.sendAt),
        reroutedFrom: had.reroutedFrom.length === 0 ? [] : r.reroutedFrom,
      });
  }
  const rows = await trx
    .insertInto('deliveries')
    .values(
      [...routes.values()].map(({ channelId: channel_id, sendAt: at, reroutedFrom }) => ({
        idempotency_key: `${e.key}:c${channel_id}`,
        channel_id,
        subscriber_id: null,
        monitor_id: e.monitorId,
        order_key: e.orderKey,
        event_kind: e.event.kind,
        payload:
          reroutedFrom.length === 0
            ? payload
            : JSON.stringify({ ...e.event, rerouted: { from: reroutedFrom } }),
        state: 'queued',
        attempts: 0,
        next_attempt_at: at,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .execute();
  return rows.length;
}

/** Enabled channels linked to any of these monitors, each once. */
export async function channelsOfMonitors(db: Db, monitorIds: readonly number[]): Promise<number[]> {
  if (monitorIds.length === 0) return [];
  const rows = await db
    .selectFrom('monitor_channels as mc')
    .innerJoin('notification_channels as nc', 'nc.id', 'mc.channel_id')
    .select('nc.id')
    .distinct()
    .where('mc.monitor_id', 'in', monitorIds)
    .where('nc.enabled', '=', 1)
    .orderBy('nc.id')
    .execute();
  return rows.map((r) => Number(r.id));
}

async function defaultChannels(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('notification_channels')
    .select('id')
    .where('is_default', '=', 1)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * Queues a monitor's alerts for each enabled channel linked to it, inside the transaction
 * that stored the result: the alert exists exactly when the change does. `resultKey` names the
 * result (its round and attempt), so each row's key is `m:<monitor>:<result>:<event>:c<channel>`.
 * Returns rows queued.
 */
export async function enqueueMonitorAlerts(
  trx: Transaction<DB>,
  monitorId: number,
  events: readonly AlertEvent[],
  now: number,
  resultKey: string,
): Promise<number> {
  const channels = await channelsOfMonitors(trx, [monitorId]);
  let queued = 0;
  for (const [i, event] of events.entries()) {
    const key = `m:${monitorId}:${resultKey}:${event.kind}:${i}`;
    queued += await insertFor(
      trx,
      channels,
      { event, orderKey: `m:${monitorId}`, monitorId, key },
      now,
    );
  }
  return queued;
}

/**
 * Queues a change people made to an incident, in its transaction: for the channels of its
 * monitors, or the default channels when it names none.
 */
export async function enqueueIncidentAlert(
  trx: Transaction<DB>,
  incident: Incident,
  kind: IncidentAlertKind,
  message: string,
  now: number,
): Promise<number> {
  const monitorIds = incident.monitors.map((m) => m.id);
  const channels =
    monitorIds.length > 0 ? await channelsOfMonitors(trx, monitorIds) : await defaultChannels(trx);
  const event = incidentAlert(incident, kind, message, now);
  // A person's change is queued by the one request that made it: a fresh id names it.
  const key = `i:${incident.id}:${kind}:${randomUUID()}`;
  return insertFor(
    trx,
    channels,
    { event, orderKey: `i:${incident.id}`, monitorId: null, key },
    now,
  );
}

/** A pending row as the dispatcher plans with it (the payload is read once claimed). */
export interface PendingDelivery {
  id: number;
  /**
   * The channel; 0 for status-page subscriber notices, which share one lane; minus the contact
   * method's id for a person's.
   */
  channelId: number;
  orderKey: string;
  nextAttemptAt: number;
  leaseUntil: number | null;
}

export interface ClaimedDelivery {
  id: number;
  channelId: number;
  /** Set for a status-page subscriber notice (channelId 0); its payload is a SubscriberNotice. */
  subscriberId: number | null;
  /** Set for a message to a person's contact method (ADR 60). */
  contactMethodId: number | null;
  payload: string;
  event: AlertEvent;
  attempts: number;
  createdAt: number;
  /** Unique per (event, channel), the same on every resend: receivers de-duplicate with it. */
  idempotencyKey: string | null;
}

/** A channel as the notifier sends through it; secrets still sealed. */
export interface StoredChannel {
  id: number;
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
  sealedSecrets: string | null;
  template: MessageTemplate;
  enabled: boolean;
}

export function deliveriesRepository(db: Kysely<DB>) {
  return {
    /**
     * The oldest undelivered rows, in id order: the first row of each (channel, order key)
     * among them is that stream's head. Uses the (state, next_attempt_at) index.
     */
    async pending(limit: number): Promise<PendingDelivery[]> {
      const rows = await db
        .selectFrom('deliveries')
        .select([
          'id',
          'channel_id',
          'contact_method_id',
          'order_key',
          'next_attempt_at',
          'lease_until',
        ])
        .where('state', 'in', undelivered)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        // A person's contact method is its own lane, below zero (ADR 60).
        channelId: r.contact_method_id ? -Number(r.contact_method_id) : Number(r.channel_id ?? 0),
        orderKey: r.order_key,
        nextAttemptAt: Number(r.next_attempt_at ?? 0),
        leaseUntil: r.lease_until === null ? null : Number(r.lease_until),
      }));
    },

    /**
     * Compare-and-set claim: the row becomes this worker's until `leaseUntil` only if it is
     * still undelivered, due and not leased by anyone else. Null when another worker won.
     */
    async claim(
      id: number,
      worker: string,
      now: number,
      leaseUntil: number,
    ): Promise<ClaimedDelivery | null> {
      const row = await db
        .updateTable('deliveries')
        .set({ leased_by: worker, lease_until: leaseUntil })
        .where('id', '=', id)
        .where('state', 'in', undelivered)
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returning([
          'id',
          'channel_id',
          'subscriber_id',
          'contact_method_id',
          'payload',
          'attempts',
          'created_at',
          'idempotency_key',
        ])
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: Number(row.id),
        channelId: Number(row.channel_id ?? 0),
        subscriberId: row.subscriber_id === null ? null : Number(row.subscriber_id),
        contactMethodId: row.contact_method_id ? Number(row.contact_method_id) : null,
        payload: row.payload,
        event: JSON.parse(row.payload) as AlertEvent,
        attempts: row.attempts,
        createdAt: Number(row.created_at),
        idempotencyKey: row.idempotency_key,
      };
    },

    async markSent(id: number, worker: string, attempts: number, now: number): Promise<void> {
      await db
        .updateTable('deliveries')
        .set({ state: 'sent', sent_at: now, attempts, lease_until: null, last_error: null })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .execute();
    },

    async markRetry(
      id: number,
      worker: string,
      attempts: number,
      nextAttemptAt: number,
      error: string,
    ): Promise<void> {
      await db
        .updateTable('deliveries')
        .set({
          state: 'retrying',
          attempts,
          next_attempt_at: nextAttemptAt,
          lease_until: null,
          last_error: error,
        })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .execute();
    },

    async markFailed(id: number, worker: string, attempts: number, error: string): Promise<void> {
      await db
        .updateTable('deliveries')
        .set({
          state: 'failed',
          attempts,
          next_attempt_at: null,
          lease_until: null,
          last_error: error,
        })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .execute();
    },

    async channel(id: number): Promise<StoredChannel | null> {
      const row = await db
        .selectFrom('notification_channels')
        .select(['id', 'name', 'kind', 'config', 'secrets', 'template', 'enabled'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: Number(row.id),
        name: row.name,
        kind: row.kind as ChannelKind,
        config: JSON.parse(row.config) as Record<string, unknown>,
        sealedSecrets: row.secrets,
        template: row.template
          ? (JSON.parse(row.template) as MessageTemplate)
          : { title: '', body: '' },
        enabled: row.enabled === 1,
      };
    },

    /** Deletes up to `limit` sent or failed deliveries created before `before`. */
    async prune(before: number, limit: number): Promise<number> {
      const res = await db
        .deleteFrom('deliveries')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('deliveries')
            .select('id')
            .where('state', 'in', ['sent', 'failed'])
            .where('created_at', '<', before)
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
