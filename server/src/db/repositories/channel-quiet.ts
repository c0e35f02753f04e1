import { ChannelQuietHours } from '@pagewatch/contract';
import type { Kysely, Transaction } from 'kysely';
import { routeForChannel, type ChannelQuiet } from '../../domain/quiet-hours/index.js';
import type { DB } from '../schema.js';
import { severityOf } from './escalation-stored.js';

type Db = Kysely<DB> | Transaction<DB>;

export const noQuietHours: ChannelQuietHours = { windows: [], rerouteChannelId: null };

/** The `quiet_hours` column (migration 052, ADR 68); none when unset or unreadable. */
export function readChannelQuiet(json: string | null | undefined): ChannelQuietHours {
  if (!json) return noQuietHours;
  try {
    return ChannelQuietHours.safeParse(JSON.parse(json)).data ?? noQuietHours;
  } catch {
    return noQuietHours;
  }
}

export const writeChannelQuiet = (q: ChannelQuietHours): string | null =>
  q.windows.length === 0 && q.rerouteChannelId === null ? null : JSON.stringify(q);

/** A removed channel stops being anyone's reroute target: their warnings wait instead. */
export async function clearReroutesTo(trx: Db, id: number): Promise<void> {
  const rows = await trx
    .selectFrom('notification_channels')
    .select(['id', 'quiet_hours'])
    .where('quiet_hours', 'is not', null)
    .execute();
  for (const r of rows) {
    const q = readChannelQuiet(r.quiet_hours);
    if (q.rerouteChannelId !== id) continue;
    await trx
      .updateTable('notification_channels')
      .set({ quiet_hours: writeChannelQuiet({ ...q, rerouteChannelId: null }) })
      .where('id', '=', r.id)
      .execute();
  }
}

/** Where and when a row for one channel goes, and the channels it was passed on from. */
export interface QuietRoute {
  channelId: number;
  sendAt: number;
  /** Empty unless quiet hours rerouted it; the message then says so (ADR 68 addendum). */
  reroutedFrom: { channelId: number; channelName: string }[];
}

/**
 * Applies channels' quiet hours to rows about to be queued (ADR 68): for each channel, the
 * channel the row goes to and when. Costs one read of the channels that have quiet hours,
 * and the monitor's severity only when one of them is asked for; no event is ever dropped.
 * Events about no monitor (incident updates people post, admin notices) are never held.
 */
export async function quietRoutes(
  trx: Db,
  channelIds: readonly number[],
  monitorId: number | null,
  at: number,
): Promise<QuietRoute[]> {
  const plain = channelIds.map((channelId) => ({ channelId, sendAt: at, reroutedFrom: [] }));
  if (channelIds.length === 0 || monitorId === null) return plain;
  const asked = await trx
    .selectFrom('notification_channels')
    .select('id')
    .where('id', 'in', channelIds)
    .where('quiet_hours', 'is not', null)
    .execute();
  if (asked.length === 0) return plain;
  // Reroutes may chain through channels not asked for: every quiet channel is read (few).
  const rows = await trx
    .selectFrom('notification_channels')
    .select(['id', 'name', 'quiet_hours'])
    .where('quiet_hours', 'is not', null)
    .execute();
  // Only a quiet channel can pass a message on, so these names cover every reroute.
  const names = new Map(rows.map((r) => [Number(r.id), r.name]));
  const quiet = new Map<number, ChannelQuiet>(
    rows.map((r) => [Number(r.id), readChannelQuiet(r.quiet_hours)]),
  );
  const severity = await severityOf(trx, monitorId);
  if (severity === 'critical') return plain;
  const targets = [...new Set([...quiet.values()].map((q) => q.rerouteChannelId))].filter(
    (id): id is number => id !== null,
  );
  const live =
    targets.length === 0
      ? []
      : await trx
          .selectFrom('notification_channels')
          .select('id')
          .where('id', 'in', targets)
          .where('enabled', '=', 1)
          .execute();
  const liveIds = new Set(live.map((r) => Number(r.id)));
  return channelIds.map((channelId) => {
    const r = routeForChannel({ channelId, severity, at, quiet, live: liveIds });
    const reroutedFrom = r.reroutedFrom.map((id) => ({
      channelId: id,
      channelName: names.get(id) ?? `#${id}`,
    }));
    return { channelId: r.channelId, sendAt: r.sendAt, reroutedFrom };
  });
}
