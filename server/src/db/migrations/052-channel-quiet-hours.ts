import type { Kysely, Migration } from 'kysely';

/**
 * A notification channel's quiet hours (issue 18 item 5, ADR 68): its windows and the channel
 * warnings go to during them, as JSON `{windows, rerouteChannelId}`; null when it has none.
 * No foreign key on the reroute: removing a channel clears it explicitly (both engines).
 */
export function channelQuietHours(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('notification_channels')
        .addColumn('quiet_hours', 'text')
        .execute();
    },
  };
}
