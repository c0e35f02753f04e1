import type { ChannelKind, ChannelQuietHours, MessageTemplate } from '@pagewatch/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB, NotificationChannelsTable } from '../schema.js';
import { clearReroutesTo, readChannelQuiet, writeChannelQuiet } from './channel-quiet.js';

type Db = Kysely<DB> | Transaction<DB>;

const columns = [
  'id',
  'name',
  'kind',
  'config',
  'secrets',
  'template',
  'is_default',
  'enabled',
  'created_at',
  'updated_at',
  'fallback_channel_id',
  'fail_threshold',
  'consecutive_failures',
  'last_error',
  'quiet_hours',
] as const;
type Row = Pick<Selectable<NotificationChannelsTable>, (typeof columns)[number]>;

const emptyTemplate: MessageTemplate = { title: '', body: '' };

/** A stored channel; `sealedSecrets` is the kind's secrets as one sealed JSON (null: none). */
export interface ChannelRecord {
  id: number;
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
  sealedSecrets: string | null;
  template: MessageTemplate;
  isDefault: boolean;
  enabled: boolean;
  monitorCount: number;
  createdAt: number;
  updatedAt: number;
  /** Delivery safety (ADR 62). */
  fallbackChannelId: number | null;
  failThreshold: number;
  consecutiveFailures: number;
  lastError: string | null;
  /** Quiet hours and time routing (ADR 68). */
  quietHours: ChannelQuietHours;
}

/** What the service writes: settings validated by the kind's schema, secrets sealed. */
export interface ChannelWrite {
  name: string;
  kind: ChannelKind;
  config: Record<string, unknown>;
  sealedSecrets: string | null;
  template: MessageTemplate;
  isDefault: boolean;
  enabled: boolean;
  /** Left out (configuration apply): the stored values stay. */
  fallbackChannelId?: number | null;
  failThreshold?: number;
  quietHours?: ChannelQuietHours;
}

function toRecord(r: Row, monitorCount: number): ChannelRecord {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as ChannelKind,
    config: JSON.parse(r.config) as Record<string, unknown>,
    sealedSecrets: r.secrets,
    template: r.template === null ? emptyTemplate : (JSON.parse(r.template) as MessageTemplate),
    isDefault: r.is_default === 1,
    enabled: r.enabled === 1,
    monitorCount,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    fallbackChannelId: r.fallback_channel_id == null ? null : Number(r.fallback_channel_id),
    failThreshold: Number(r.fail_threshold ?? 3),
    consecutiveFailures: Number(r.consecutive_failures ?? 0),
    lastError: r.last_error ?? null,
    quietHours: readChannelQuiet(r.quiet_hours),
  };
}

function writeColumns(c: ChannelWrite) {
  const template =
    c.template.title === '' && c.template.body === '' ? null : JSON.stringify(c.template);
  return {
    name: c.name,
    kind: c.kind,
    config: JSON.stringify(c.config),
    secrets: c.sealedSecrets,
    template,
    is_default: c.isDefault ? 1 : 0,
    enabled: c.enabled ? 1 : 0,
    ...(c.fallbackChannelId !== undefined ? { fallback_channel_id: c.fallbackChannelId } : {}),
    ...(c.failThreshold !== undefined ? { fail_threshold: c.failThreshold } : {}),
    ...(c.quietHours !== undefined ? { quiet_hours: writeChannelQuiet(c.quietHours) } : {}),
  };
}

async function monitorCounts(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('monitor_channels')
    .select((eb) => ['channel_id', eb.fn.countAll<number | string>().as('n')])
    .where('channel_id', 'in', ids)
    .groupBy('channel_id')
    .execute();
  return new Map(rows.map((r) => [r.channel_id, Number(r.n)]));
}

async function load(db: Db, id: number): Promise<ChannelRecord | null> {
  const row = await db
    .selectFrom('notification_channels')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return toRecord(row, (await monitorCounts(db, [id])).get(id) ?? 0);
}

/** Replaces the channels a monitor alerts through (inside the monitor write's transaction). */
export async function setMonitorChannels(
  db: Db,
  monitorId: number,
  channelIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('monitor_channels').where('monitor_id', '=', monitorId).execute();
  const unique = [...new Set(channelIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('monitor_channels')
    .values(unique.map((channel_id) => ({ monitor_id: monitorId, channel_id })))
    .execute();
}

export function notificationChannelsRepository(db: Kysely<DB>) {
  return {
    /** Every channel by name, with how many monitors alert through it. */
    async list(): Promise<ChannelRecord[]> {
      const rows = await db
        .selectFrom('notification_channels')
        .select(columns)
        .orderBy('name')
        .orderBy('id')
        .execute();
      const counts = await monitorCounts(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => toRecord(r, counts.get(r.id) ?? 0));
    },

    findById: (id: number) => load(db, id),

    async insert(c: ChannelWrite, now: number): Promise<ChannelRecord> {
      const { id } = await db
        .insertInto('notification_channels')
        .values({ ...writeColumns(c), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await load(db, id))!;
    },

    async update(id: number, c: ChannelWrite, now: number): Promise<ChannelRecord | null> {
      const res = await db
        .updateTable('notification_channels')
        .set({ ...writeColumns(c), updated_at: now })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 0 ? null : load(db, id);
    },

    /** Deletes the channel; its monitor links and undelivered alerts go with it (cascade). */
    async remove(id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        // SQLite enforces foreign keys only when asked; deleting explicitly holds on both engines.
        await trx.deleteFrom('monitor_channels').where('channel_id', '=', id).execute();
        await trx.deleteFrom('deliveries').where('channel_id', '=', id).execute();
        await trx
          .updateTable('notification_channels')
          .set({ fallback_channel_id: null })
          .where('fallback_channel_id', '=', id)
          .execute();
        await clearReroutesTo(trx, id);
        const res = await trx
          .deleteFrom('notification_channels')
          .where('id', '=', id)
          .executeTakeFirst();
        return Number(res.numDeletedRows) > 0;
      });
    },

    /** Channels ticked for new monitors. */
    async defaultIds(): Promise<number[]> {
      const rows = await db
        .selectFrom('notification_channels')
        .select('id')
        .where('is_default', '=', 1)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    },

    /** Which of these ids name a channel. */
    async existingIds(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('notification_channels')
        .select('id')
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /** Each channel's fallback, for refusing a chain that leads back (ADR 62). */
    async fallbacks(): Promise<Map<number, number | null>> {
      const rows = await db
        .selectFrom('notification_channels')
        .select(['id', 'fallback_channel_id'])
        .execute();
      return new Map(
        rows.map((r) => [
          Number(r.id),
          r.fallback_channel_id == null ? null : Number(r.fallback_channel_id),
        ]),
      );
    },

    async channelIdsOf(monitorId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('monitor_channels')
        .select('channel_id')
        .where('monitor_id', '=', monitorId)
        .orderBy('channel_id')
        .execute();
      return rows.map((r) => r.channel_id);
    },

    setMonitorChannels: (monitorId: number, channelIds: readonly number[]) =>
      db.transaction().execute((trx) => setMonitorChannels(trx, monitorId, channelIds)),
  };
}

export type NotificationChannelsRepository = ReturnType<typeof notificationChannelsRepository>;
