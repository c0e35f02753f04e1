import type { AlertEvent } from '@pagewatch/contract';
import type { Database } from '../../src/db/database.js';
import type { SecretBox } from '../../src/lib/crypto.js';

/** A notification channel row, as the channels API would store it (that API is not ours). */
export async function insertChannel(
  database: Database,
  o: {
    url: string;
    kind?: string;
    name?: string;
    enabled?: boolean;
    isDefault?: boolean;
    secrets?: Record<string, string>;
    box?: SecretBox;
  },
): Promise<number> {
  const now = Date.now();
  const row = await database.db
    .insertInto('notification_channels')
    .values({
      name: o.name ?? 'Ops hook',
      kind: o.kind ?? 'webhook',
      config: JSON.stringify({ url: o.url, method: 'POST', headers: [] }),
      secrets: o.secrets && o.box ? o.box.seal(JSON.stringify(o.secrets)) : null,
      template: null,
      is_default: o.isDefault ? 1 : 0,
      enabled: o.enabled === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function linkChannel(database: Database, monitorId: number, channelId: number) {
  await database.db
    .insertInto('monitor_channels')
    .values({ monitor_id: monitorId, channel_id: channelId })
    .execute();
}

export interface DeliveryRow {
  id: number;
  channelId: number | null;
  orderKey: string;
  kind: string;
  event: AlertEvent;
  state: string;
  attempts: number;
  nextAttemptAt: number | null;
  lastError: string | null;
}

/** The outbox, oldest first. */
export async function outbox(database: Database): Promise<DeliveryRow[]> {
  const rows = await database.db
    .selectFrom('deliveries')
    .select([
      'id',
      'channel_id',
      'order_key',
      'event_kind',
      'payload',
      'state',
      'attempts',
      'next_attempt_at',
      'last_error',
    ])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    channelId: r.channel_id === null ? null : Number(r.channel_id),
    orderKey: r.order_key,
    kind: r.event_kind,
    event: JSON.parse(r.payload) as AlertEvent,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
    lastError: r.last_error,
  }));
}

/** Puts an event straight into the outbox for one channel (the dispatcher's input). */
export async function queueDelivery(
  database: Database,
  channelId: number,
  orderKey: string,
  kind: AlertEvent['kind'],
  now: number,
): Promise<number> {
  const event: AlertEvent = {
    kind,
    at: new Date(now).toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
  };
  const row = await database.db
    .insertInto('deliveries')
    .values({
      channel_id: channelId,
      subscriber_id: null,
      monitor_id: null,
      order_key: orderKey,
      event_kind: kind,
      payload: JSON.stringify(event),
      state: 'queued',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
