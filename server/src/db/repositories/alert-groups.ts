import type { AlertEvent } from '@pagewatch/contract';
import type { Kysely, Transaction } from 'kysely';
import { groupedEvent } from '../../domain/alert-groups/grouped-event.js';
import type { DB } from '../schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Events a group collects (ADR 42); every other kind goes to the outbox at once. */
export const groupedKinds: ReadonlySet<AlertEvent['kind']> = new Set([
  'monitor.down',
  'heartbeat.missed',
  'monitor.up',
]);

export const DEFAULT_GROUP_WINDOW_S = 120;
/** Dependency roots are followed this far up; deeper trees group at this level. */
const MAX_DEPTH = 16;

/** The group a monitor's alerts join, or null when they go out alone. */
export interface GroupOf {
  key: string;
  label: string;
  windowMs: number;
}

/**
 * A monitor's group: its chosen tag, else its dependency root (first parents up to a monitor
 * without parents); a root groups with its own children. Null for a monitor with neither.
 * A few indexed look-ups, run only for results that raise a down or up alert.
 */
export async function groupOf(db: Db, monitorId: number): Promise<GroupOf | null> {
  const setting = await db
    .selectFrom('monitor_grouping')
    .select(['tag', 'window_s'])
    .where('monitor_id', '=', monitorId)
    .executeTakeFirst();
  const windowMs = (setting?.window_s ?? DEFAULT_GROUP_WINDOW_S) * 1000;
  if (setting?.tag) return { key: `t:${setting.tag}`, label: `tag ${setting.tag}`, windowMs };
  let root = monitorId;
  let rootName: string | null = null;
  const seen = new Set([root]);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const up = await db
      .selectFrom('monitor_parents as mp')
      .innerJoin('monitors as p', 'p.id', 'mp.parent_id')
      .select(['mp.parent_id', 'p.name'])
      .where('mp.monitor_id', '=', root)
      .orderBy('mp.parent_id')
      .limit(1)
      .executeTakeFirst();
    if (!up || seen.has(Number(up.parent_id))) break;
    root = Number(up.parent_id);
    rootName = up.name;
    seen.add(root);
  }
  if (root === monitorId) {
    // A root groups with its children: it has one, and its own name labels the group.
    const child = await db
      .selectFrom('monitor_parents as mp')
      .innerJoin('monitors as m', 'm.id', 'mp.parent_id')
      .select('m.name')
      .where('mp.parent_id', '=', monitorId)
      .limit(1)
      .executeTakeFirst();
    if (!child) return null;
    rootName = child.name;
  }
  return { key: `d:${root}`, label: `behind ${rootName ?? `#${root}`}`, windowMs };
}

/**
 * Adds an event to its group's open batch for the phase (down or up), opening one due at the
 * end of the window when none is open. Inside the result's transaction; the batch row is
 * updated first, so its lock orders this against a flush (a flushed batch is not joined).
 * Returns whether the event was added (false: this result's event was added already).
 */
export async function addToBatch(
  trx: Transaction<DB>,
  group: GroupOf,
  monitorId: number,
  event: AlertEvent,
  key: string,
  now: number,
): Promise<boolean> {
  const phase = event.kind === 'monitor.up' ? 'up' : 'down';
  const join = () =>
    trx
      .updateTable('alert_batches')
      .set((eb) => ({ items: eb('items', '+', 1) }))
      .where('group_key', '=', group.key)
      .where('phase', '=', phase)
      .where('flushed_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
  for (let attempt = 0; attempt < 3; attempt++) {
    // Most alerts join a batch already open: one statement; the first opens it.
    let batch = await join();
    if (!batch) {
      await trx
        .insertInto('alert_batches')
        .values({
          group_key: group.key,
          phase,
          label: group.label,
          opened_at: now,
          due_at: now + group.windowMs,
          flushed_at: null,
        })
        .onConflict((oc) =>
          oc.columns(['group_key', 'phase']).where('flushed_at', 'is', null).doNothing(),
        )
        .execute();
      batch = await join();
    }
    // Flushed between the insert and the update (another process): open the next one.
    if (!batch) continue;
    const added = await trx
      .insertInto('alert_batch_items')
      .values({
        batch_id: Number(batch.id),
        monitor_id: monitorId,
        idempotency_key: key,
        payload: JSON.stringify(event),
        created_at: now,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return added !== undefined;
  }
  throw new Error(`alert group ${group.key}: no open batch after three tries`);
}

/**
 * Puts a result's down and up alerts of a grouped monitor into its group's batch (ADR 42);
 * returns the events that go to the outbox at once. No query when none could be grouped.
 */
export async function collectGrouped(
  trx: Transaction<DB>,
  monitorId: number,
  events: readonly AlertEvent[],
  now: number,
  resultKey: string,
): Promise<{ rest: AlertEvent[]; added: number }> {
  if (!events.some((e) => groupedKinds.has(e.kind))) return { rest: [...events], added: 0 };
  const group = await groupOf(trx, monitorId);
  if (!group) return { rest: [...events], added: 0 };
  const rest: AlertEvent[] = [];
  let added = 0;
  for (const [i, event] of events.entries()) {
    if (!groupedKinds.has(event.kind)) {
      rest.push(event);
      continue;
    }
    const key = `m:${monitorId}:${resultKey}:${event.kind}:${i}`;
    if (await addToBatch(trx, group, monitorId, event, key, now)) added++;
  }
  return { rest, added };
}

/** Enabled channels of each monitor. */
async function channelsByMonitor(db: Db, ids: readonly number[]) {
  const rows = await db
    .selectFrom('monitor_channels as mc')
    .innerJoin('notification_channels as nc', 'nc.id', 'mc.channel_id')
    .select(['mc.monitor_id', 'nc.id'])
    .where('mc.monitor_id', 'in', ids)
    .where('nc.enabled', '=', 1)
    .orderBy('nc.id')
    .execute();
  const byChannel = new Map<number, Set<number>>();
  for (const r of rows) {
    const c = Number(r.id);
    if (!byChannel.has(c)) byChannel.set(c, new Set());
    byChannel.get(c)!.add(Number(r.monitor_id));
  }
  return byChannel;
}

export function alertGroupsRepository(db: Kysely<DB>) {
  return {
    /** A monitor's grouping setting (defaults when none is stored). */
    async setting(monitorId: number): Promise<{ tag: string | null; windowS: number }> {
      const row = await db
        .selectFrom('monitor_grouping')
        .select(['tag', 'window_s'])
        .where('monitor_id', '=', monitorId)
        .executeTakeFirst();
      return { tag: row?.tag ?? null, windowS: row?.window_s ?? DEFAULT_GROUP_WINDOW_S };
    },

    async setSetting(monitorId: number, s: { tag: string | null; windowS: number }) {
      await db
        .insertInto('monitor_grouping')
        .values({ monitor_id: monitorId, tag: s.tag, window_s: s.windowS })
        .onConflict((oc) =>
          oc.column('monitor_id').doUpdateSet({ tag: s.tag, window_s: s.windowS }),
        )
        .execute();
    },

    /**
     * Flushes the batches whose window ended: each once (compare-and-set on `flushed_at`), as
     * one outbox row per channel listing the members linked to that channel. Returns the rows
     * queued.
     */
    async flushDue(now: number, limit = 100): Promise<number> {
      const due = await db
        .selectFrom('alert_batches')
        .select('id')
        .where('flushed_at', 'is', null)
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      let queued = 0;
      for (const { id } of due) {
        queued += await db.transaction().execute(async (trx) => {
          const batch = await trx
            .updateTable('alert_batches')
            .set({ flushed_at: now })
            .where('id', '=', Number(id))
            .where('flushed_at', 'is', null)
            .returning(['id', 'group_key', 'label'])
            .executeTakeFirst();
          if (!batch) return 0;
          const items = await trx
            .selectFrom('alert_batch_items')
            .select(['monitor_id', 'payload'])
            .where('batch_id', '=', Number(batch.id))
            .orderBy('id')
            .execute();
          if (items.length === 0) return 0;
          const events = items.map((i) => ({
            monitorId: Number(i.monitor_id),
            event: JSON.parse(i.payload) as AlertEvent,
          }));
          const byChannel = await channelsByMonitor(trx, [
            ...new Set(events.map((e) => e.monitorId)),
          ]);
          const rows = [...byChannel].flatMap(([channelId, members]) => {
            const mine = events.filter((e) => members.has(e.monitorId));
            const event = groupedEvent(
              { key: batch.group_key, label: batch.label },
              mine.map((e) => e.event),
            );
            if (!event) return [];
            return [
              {
                idempotency_key: `g:${batch.id}:c${channelId}`,
                channel_id: channelId,
                subscriber_id: null,
                monitor_id: mine.length === 1 ? mine[0]!.monitorId : null,
                order_key: `g:${batch.group_key}`,
                event_kind: event.kind,
                payload: JSON.stringify(event),
                state: 'queued',
                attempts: 0,
                next_attempt_at: now,
                created_at: now,
              },
            ];
          });
          if (rows.length === 0) return 0;
          const inserted = await trx
            .insertInto('deliveries')
            .values(rows)
            .onConflict((oc) => oc.column('idempotency_key').doNothing())
            .returning('id')
            .execute();
          return inserted.length;
        });
      }
      return queued;
    },
  };
}

export type AlertGroupsRepository = ReturnType<typeof alertGroupsRepository>;
