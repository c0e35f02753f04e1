import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** Rows per insert when linking a channel to many monitors (well under both engines' limits). */
const CHUNK = 500;

/** Which monitors alert through an enabled channel, and linking one channel to many monitors. */
export function channelCoverageRepository(db: Kysely<DB>) {
  return {
    /** Every monitor's id, name and tags, by name. */
    async monitors(): Promise<{ id: number; name: string; tags: string[] }[]> {
      const rows = await db
        .selectFrom('monitors')
        .select(['id', 'name', 'tags'])
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, tags: JSON.parse(r.tags) as string[] }));
    },

    /** Ids of the monitors linked to at least one enabled channel. */
    async coveredIds(): Promise<Set<number>> {
      const rows = await db
        .selectFrom('monitor_channels')
        .innerJoin(
          'notification_channels',
          'notification_channels.id',
          'monitor_channels.channel_id',
        )
        .select('monitor_channels.monitor_id')
        .where('notification_channels.enabled', '=', 1)
        .distinct()
        .execute();
      return new Set(rows.map((r) => r.monitor_id));
    },

    /** Links the channel to these monitors; returns how many links are new. */
    async attach(channelId: number, monitorIds: readonly number[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const linked = await trx
          .selectFrom('monitor_channels')
          .select('monitor_id')
          .where('channel_id', '=', channelId)
          .execute();
        const had = new Set(linked.map((r) => r.monitor_id));
        const fresh = [...new Set(monitorIds)].filter((id) => !had.has(id));
        for (let i = 0; i < fresh.length; i += CHUNK) {
          await trx
            .insertInto('monitor_channels')
            .values(
              fresh
                .slice(i, i + CHUNK)
                .map((monitor_id) => ({ monitor_id, channel_id: channelId })),
            )
            // A monitor written meanwhile may have got the link already.
            .onConflict((oc) => oc.columns(['monitor_id', 'channel_id']).doNothing())
            .execute();
        }
        return fresh.length;
      });
    },
  };
}
