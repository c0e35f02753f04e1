import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** The tables of the resources a configuration document describes, by document kind. */
export const configTables = {
  channels: 'notification_channels',
  monitors: 'monitors',
  statusPages: 'status_pages',
  maintenance: 'maintenance_windows',
  slos: 'slos',
} as const;
export type ConfigTableKind = keyof typeof configTables;

/** Resources per statement when many are marked: well under both engines' parameter limits. */
const MARK_CHUNK = 500;

/** A resource's config bookkeeping (migration 018). */
export interface ConfigMark {
  id: number;
  key: string | null;
  managed: boolean;
  /** What the last apply wrote (migration 020), or null. */
  applied: string | null;
}

/** Keys and the "managed by config" flag of every resource kind. */
export function configKeysRepository(db: Kysely<DB>) {
  return {
    async marks(kind: ConfigTableKind): Promise<ConfigMark[]> {
      const rows = await db
        .selectFrom(configTables[kind])
        .select(['id', 'config_key', 'managed_by_config', 'config_applied'])
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        key: r.config_key,
        managed: Number(r.managed_by_config) === 1,
        applied: r.config_applied,
      }));
    },

    /** Sets a resource's key and, when given, whether config manages it. */
    async mark(kind: ConfigTableKind, id: number, key: string, managed?: boolean): Promise<void> {
      await db
        .updateTable(configTables[kind])
        .set({
          config_key: key,
          ...(managed === undefined ? {} : { managed_by_config: managed ? 1 : 0 }),
        })
        .where('id', '=', id)
        .execute();
    },

    /** Keys and the managed flag of many resources at once (an apply's new ones), in chunks. */
    async markMany(
      kind: ConfigTableKind,
      rows: readonly { id: number; key: string }[],
      managed: boolean,
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += MARK_CHUNK) {
        const chunk = rows.slice(i, i + MARK_CHUNK);
        const keyOf = sql<string>`case id ${sql.join(
          chunk.map((r) => sql`when ${r.id} then ${r.key}`),
          sql` `,
        )} end`;
        await db
          .updateTable(configTables[kind])
          .set({ config_key: keyOf, managed_by_config: managed ? 1 : 0 })
          .where(
            'id',
            'in',
            chunk.map((r) => r.id),
          )
          .execute();
      }
    },

    /** Hands a resource back to the UI; its key stays, so a later apply finds it again. */
    async detach(kind: ConfigTableKind, id: number): Promise<boolean> {
      const res = await db
        .updateTable(configTables[kind])
        .set({ managed_by_config: 0 })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Records what an apply wrote, for drift, in chunks like `markMany`. */
    async setApplied(
      kind: ConfigTableKind,
      rows: readonly { id: number; applied: string }[],
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += MARK_CHUNK) {
        const chunk = rows.slice(i, i + MARK_CHUNK);
        const appliedOf = sql<string>`case id ${sql.join(
          chunk.map((r) => sql`when ${r.id} then ${r.applied}`),
          sql` `,
        )} end`;
        await db
          .updateTable(configTables[kind])
          .set({ config_applied: appliedOf })
          .where(
            'id',
            'in',
            chunk.map((r) => r.id),
          )
          .execute();
      }
    },

    /** Every monitor's channel links, for the document's `channels` lists. */
    async monitorChannels(): Promise<{ monitorId: number; channelId: number }[]> {
      const rows = await db
        .selectFrom('monitor_channels')
        .select(['monitor_id', 'channel_id'])
        .orderBy('monitor_id')
        .orderBy('channel_id')
        .execute();
      return rows.map((r) => ({
        monitorId: Number(r.monitor_id),
        channelId: Number(r.channel_id),
      }));
    },
  };
}

export type ConfigKeysRepository = ReturnType<typeof configKeysRepository>;
