import {
  RotationLayerInput,
  type EscalationTarget,
  type QuietHoursWindow,
} from '@pagewatch/contract';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import {
  combineReach,
  namedStepChannels,
  peopleTargets,
  type Contact,
  type StepReach,
} from '../../domain/escalation/index.js';
import { onCallAt } from '../../domain/oncall/index.js';
import { sendTime } from '../../domain/quiet-hours/index.js';
import type { DB } from '../schema.js';
import { readWindows } from './contact-methods.js';
import type { OutboxEntry } from './deliveries.js';

type Trx = Transaction<DB>;
const StoredLayers = z.array(RotationLayerInput);

/** Who is on call in a schedule at `at`, read inside the transaction; null: nobody. */
async function onCall(
  trx: Trx,
  scheduleId: number,
  at: number,
): Promise<{ name: string; userId: number | null } | null> {
  const s = await trx
    .selectFrom('oncall_schedules')
    .select(['name', 'time_zone', 'layers'])
    .where('id', '=', scheduleId)
    .executeTakeFirst();
  if (!s) return null;
  const overrides = await trx
    .selectFrom('oncall_overrides')
    .select(['user_id', 'from_at', 'to_at'])
    .where('schedule_id', '=', scheduleId)
    .where('from_at', '<=', at)
    .where('to_at', '>', at)
    .execute();
  const layers = StoredLayers.safeParse(JSON.parse(s.layers)).data ?? [];
  const who = onCallAt(
    {
      timeZone: s.time_zone,
      layers,
      overrides: overrides.map((o) => ({
        userId: Number(o.user_id),
        from: Number(o.from_at),
        to: Number(o.to_at),
      })),
    },
    at,
  );
  return { name: s.name, userId: who?.userId ?? null };
}

/** Verified methods of active people (all of them when `userIds` is null), by person. */
async function verifiedContacts(
  trx: Trx,
  userIds: readonly number[] | null,
): Promise<{ contacts: Contact[]; names: Map<number, string> }> {
  let q = trx
    .selectFrom('users as u')
    .leftJoin('contact_methods as c', (j) =>
      j.onRef('c.user_id', '=', 'u.id').on('c.verified_at', 'is not', null),
    )
    .select(['u.id as user_id', 'u.name', 'u.email', 'c.id as contact_id'])
    .where('u.disabled', '=', 0)
    .orderBy('u.id')
    .orderBy('c.id');
  if (userIds !== null) {
    if (userIds.length === 0) return { contacts: [], names: new Map() };
    q = q.where('u.id', 'in', [...userIds]);
  }
  const rows = await q.execute();
  const names = new Map<number, string>();
  const contacts: Contact[] = [];
  for (const r of rows) {
    names.set(Number(r.user_id), r.name || r.email);
    if (r.contact_id !== null)
      contacts.push({ userId: Number(r.user_id), contactId: Number(r.contact_id) });
  }
  return { contacts, names };
}

/**
 * Resolves a step's targets when it fires (ADR 60): channels as before, a person to their
 * verified contact methods, a schedule to whoever is on call at `at`, everyone to every active
 * person's. Targets that reach nobody become warnings and the monitor's channels hear the step.
 */
export async function resolveStep(
  trx: Trx,
  targets: readonly EscalationTarget[],
  at: number,
  ctx: { monitorChannelIds: readonly number[]; liveChannelIds: ReadonlySet<number> },
): Promise<StepReach> {
  const channelIds = namedStepChannels(targets, ctx);
  const people = peopleTargets(targets);
  const warnings: string[] = [];
  const userIds = new Set(people.userIds);
  for (const id of people.scheduleIds) {
    const who = await onCall(trx, id, at);
    if (!who) warnings.push(`On-call schedule ${id} no longer exists`);
    else if (who.userId === null) warnings.push(`Nobody is on call in “${who.name}”`);
    else userIds.add(who.userId);
  }
  const contacts: Contact[] = [];
  if (userIds.size > 0) {
    const found = await verifiedContacts(trx, [...userIds]);
    contacts.push(...found.contacts);
    for (const id of userIds) {
      const name = found.names.get(id);
      if (name === undefined) warnings.push(`Person ${id} no longer exists or is disabled`);
      else if (!found.contacts.some((c) => c.userId === id))
        warnings.push(`“${name}” has no verified contact method`);
    }
  }
  if (people.everyone) {
    const all = await verifiedContacts(trx, null);
    if (all.contacts.length === 0) warnings.push('Nobody has a verified contact method');
    contacts.push(...all.contacts);
  }
  return combineReach(channelIds, contacts, warnings, ctx.monitorChannelIds);
}

/** The contact methods among `ids` that still exist, with their owners. */
export async function contactsByIds(trx: Trx, ids: readonly number[]): Promise<Contact[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('contact_methods')
    .select(['id', 'user_id'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ userId: Number(r.user_id), contactId: Number(r.id) }));
}

async function quietHoursOf(trx: Trx, userIds: readonly number[]) {
  const out = new Map<number, QuietHoursWindow[]>();
  if (userIds.length === 0) return out;
  const rows = await trx
    .selectFrom('user_quiet_hours')
    .select(['user_id', 'windows'])
    .where('user_id', 'in', [...userIds])
    .execute();
  for (const r of rows) out.set(Number(r.user_id), readWindows(r.windows));
  return out;
}

/**
 * Queues one row per contact method. A warning waits for the end of its person's quiet hours
 * (and the policy's); a critical one goes at once: never dropped, only delayed (ADR 60).
 */
export async function insertForContacts(
  trx: Trx,
  contacts: readonly Contact[],
  e: OutboxEntry,
  now: number,
  quiet: { severity: 'critical' | 'warning'; policyWindows: readonly QuietHoursWindow[] },
): Promise<number> {
  if (contacts.length === 0) return 0;
  const windows =
    quiet.severity === 'warning'
      ? await quietHoursOf(trx, [...new Set(contacts.map((c) => c.userId))])
      : new Map<number, QuietHoursWindow[]>();
  const payload = JSON.stringify(e.event);
  const rows = await trx
    .insertInto('deliveries')
    .values(
      contacts.map((c) => ({
        idempotency_key: `${e.key}:p${c.contactId}`,
        channel_id: null,
        subscriber_id: null,
        contact_method_id: c.contactId,
        monitor_id: e.monitorId,
        order_key: e.orderKey,
        event_kind: e.event.kind,
        payload,
        state: 'queued',
        attempts: 0,
        next_attempt_at: sendTime({
          severity: quiet.severity,
          at: now,
          windows: [...quiet.policyWindows, ...(windows.get(c.userId) ?? [])],
        }).sendAt,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .execute();
  return rows.length;
}
