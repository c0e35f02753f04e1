import type { AlertEvent } from '@pagewatch/contract';
import type { Selectable, Transaction } from 'kysely';
import {
  addNotified,
  advance,
  namedChannelIds,
  policyRole,
  startCursor,
  type EscalationCursor,
  type StepReach,
} from '../../domain/escalation/index.js';
import { sendTime } from '../../domain/quiet-hours/index.js';
import type { DB, EscalationsTable } from '../schema.js';
import { insertAuditRows } from './audit.js';
import { channelsOfMonitors, enqueueMonitorAlerts, insertFor } from './deliveries.js';
import { contactsByIds, insertForContacts, resolveStep } from './escalation-targets.js';
import {
  parseNumbers,
  parseStrings,
  policyRules,
  severityOf,
  type StoredPolicy,
} from './escalation-stored.js';

type Trx = Transaction<DB>;
type EscalationRow = Selectable<EscalationsTable>;

async function liveChannels(db: Trx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_channels')
    .select('id')
    .where('id', 'in', ids)
    .where('enabled', '=', 1)
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** What firing one step did: rows queued, and whether the step was this caller's to fire. */
export interface FireOutcome {
  fired: boolean;
  queued: number;
  /** How late the step fired against its due time, in ms. */
  lateMs: number;
}

/**
 * Queues one outage message for channels and people. Channels wait for the policy's quiet
 * hours (a warning only); people for theirs and the policy's (ADR 39, 60).
 */
async function queueReach(
  trx: Trx,
  reach: Pick<StepReach, 'channelIds' | 'contacts'>,
  entry: Parameters<typeof insertFor>[2],
  policy: StoredPolicy | null,
  at: number,
): Promise<number> {
  const windows = policy?.quietHours ?? [];
  const needSeverity = windows.length > 0 || reach.contacts.length > 0;
  const severity = needSeverity ? await severityOf(trx, entry.monitorId!) : 'critical';
  const sendAt = sendTime({ severity, at, windows }).sendAt;
  return (
    (await insertFor(trx, reach.channelIds, entry, at, sendAt)) +
    (await insertForContacts(trx, reach.contacts, entry, at, { severity, policyWindows: windows }))
  );
}

/** Admins hear of a target that reached nobody in the audit log, once per escalation. */
async function warnAdmins(trx: Trx, row: EscalationRow, fresh: string[], at: number) {
  if (fresh.length === 0) return;
  await insertAuditRows(
    trx,
    fresh.map((w) => ({
      at,
      actor: { type: 'system' as const, id: null, label: 'Escalation' },
      action: 'escalation.unreachable' as const,
      target: { type: 'monitor', id: String(row.monitor_id) },
      ip: null,
      summary: `${w}: the monitor's channels were notified instead (escalation ${row.id})`,
    })),
  );
}

/**
 * Fires the step the escalation's cursor points at, if it still does: the cursor moves by a
 * compare-and-set on (next_step, cycle), so two callers (the result write and the job, or two
 * processes) never both fire one step, and the deliveries' idempotency keys name the step.
 */
export async function fireStep(
  trx: Trx,
  row: EscalationRow,
  now: number,
  /** The time due-ness is judged by (the job's clock); `now` stamps the rows queued. */
  dueBy = now,
): Promise<FireOutcome> {
  const none = { fired: false, queued: 0, lateMs: 0 };
  if (row.next_step === null || row.next_due_at === null) return none;
  if (row.acked_at !== null || row.resolved_at !== null) return none;
  const monitorId = Number(row.monitor_id);
  const policy = await policyRules(trx, row.policy_id === null ? null : Number(row.policy_id));
  const cursor: EscalationCursor = {
    nextStep: Number(row.next_step),
    cycle: Number(row.cycle),
    dueAt: Number(row.next_due_at),
  };
  const monitorChannelIds = await channelsOfMonitors(trx, [monitorId]);
  // A deleted policy (or a step it no longer has) must not silence the outage: the monitor's
  // channels hear it, once, and the escalation ends. People are resolved as the step fires.
  const step = policy?.steps[cursor.nextStep!];
  const reach: StepReach =
    policy && step
      ? await resolveStep(trx, step.targets, dueBy, {
          monitorChannelIds,
          liveChannelIds: await liveChannels(trx, namedChannelIds(policy)),
        })
      : { channelIds: monitorChannelIds, contacts: [], warnings: [] };
  const next: EscalationCursor =
    policy && step ? advance(policy, cursor) : { nextStep: null, cycle: cursor.cycle, dueAt: null };
  const known = parseStrings(row.warnings);
  const fresh = reach.warnings.filter((w) => !known.includes(w));
  const moved = await trx
    .updateTable('escalations')
    .set({
      next_step: next.nextStep,
      cycle: next.cycle,
      next_due_at: next.dueAt,
      notified: JSON.stringify(addNotified(parseNumbers(row.notified), reach.channelIds)),
      notified_users: JSON.stringify(
        addNotified(
          parseNumbers(row.notified_users),
          reach.contacts.map((c) => c.userId),
        ),
      ),
      notified_contacts: JSON.stringify(
        addNotified(
          parseNumbers(row.notified_contacts),
          reach.contacts.map((c) => c.contactId),
        ),
      ),
      warnings: JSON.stringify([...known, ...fresh].slice(-20)),
    })
    .where('id', '=', row.id)
    .where('next_step', '=', cursor.nextStep!)
    .where('cycle', '=', cursor.cycle)
    .where('acked_at', 'is', null)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return none;
  await warnAdmins(trx, row, fresh, now);
  const event = { ...(JSON.parse(row.event) as AlertEvent) };
  event.escalation = { id: Number(row.id), acknowledgedBy: null };
  const key = `e:${row.id}:${cursor.cycle}.${cursor.nextStep}:${event.kind}`;
  const queued = await queueReach(
    trx,
    reach,
    { event, orderKey: `m:${monitorId}`, monitorId, key },
    policy,
    now,
  );
  return { fired: true, queued, lateMs: Math.max(0, dueBy - cursor.dueAt!) };
}

async function latestOpen(trx: Trx, monitorId: number) {
  return trx
    .selectFrom('escalations')
    .selectAll()
    .where('monitor_id', '=', monitorId)
    .where('resolved_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Opens the outage's escalation; fires step 0 at once when it waits 0 minutes. */
async function start(
  trx: Trx,
  input: { monitorId: number; policyId: number; at: number },
  policy: StoredPolicy,
  event: AlertEvent,
  outageKey: string,
): Promise<number> {
  const { monitorId, policyId, at } = input;
  const cursor = startCursor(policy, at);
  const inserted = await trx
    .insertInto('escalations')
    .values({
      monitor_id: monitorId,
      policy_id: policyId,
      outage_key: outageKey,
      event: JSON.stringify(event),
      started_at: at,
      next_step: cursor.nextStep,
      cycle: cursor.cycle,
      next_due_at: cursor.dueAt,
      notified: '[]',
    })
    .onConflict((oc) => oc.column('outage_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) return 0;
  // Still earlier outages left open (a restart between down and up) end here: one at a time.
  await trx
    .updateTable('escalations')
    .set({ resolved_at: at, next_due_at: null, next_step: null })
    .where('monitor_id', '=', monitorId)
    .where('resolved_at', 'is', null)
    .where('id', '<', inserted.id)
    .execute();
  if (cursor.dueAt !== null && cursor.dueAt <= at)
    return (await fireStep(trx, inserted, at)).queued;
  return 0;
}

/**
 * Alerting of one result write under an escalation policy, in the write's transaction.
 * Outage events (down, reminders, recovery) follow the policy; everything else goes to the
 * monitor's channels as before. Reminders and the recovery reach every channel and person
 * notified so far; the recovery carries the outage's length and who acknowledged.
 */
export async function followEscalation(
  trx: Trx,
  input: {
    monitorId: number;
    policyId: number;
    events: readonly AlertEvent[];
    at: number;
    resultKey: string;
  },
): Promise<number> {
  const { monitorId, policyId, at, resultKey } = input;
  const plain: AlertEvent[] = [];
  let queued = 0;
  for (const [i, event] of input.events.entries()) {
    const role = policyRole(event.kind);
    if (role === 'start') {
      const policy = await policyRules(trx, policyId);
      if (!policy) plain.push(event);
      else queued += await start(trx, input, policy, event, `m:${monitorId}:${resultKey}:${i}`);
      continue;
    }
    if (role === 'notified' || role === 'resolve') {
      const open = await latestOpen(trx, monitorId);
      if (!open) {
        plain.push(event);
        continue;
      }
      const id = Number(open.id);
      if (role === 'resolve') {
        await trx
          .updateTable('escalations')
          .set({ resolved_at: at, next_due_at: null, next_step: null })
          .where('id', '=', id)
          .execute();
      }
      const policy = await policyRules(
        trx,
        open.policy_id === null ? null : Number(open.policy_id),
      );
      const reach = {
        channelIds: parseNumbers(open.notified),
        contacts: await contactsByIds(trx, parseNumbers(open.notified_contacts)),
      };
      const routed: AlertEvent = {
        ...event,
        escalation: { id, acknowledgedBy: open.acked_by ?? null },
      };
      const key = `m:${monitorId}:${resultKey}:${event.kind}:${i}`;
      queued += await queueReach(
        trx,
        reach,
        { event: routed, orderKey: `m:${monitorId}`, monitorId, key },
        policy,
        at,
      );
      continue;
    }
    plain.push(event);
  }
  if (plain.length > 0) queued += await enqueueMonitorAlerts(trx, monitorId, plain, at, resultKey);
  return queued;
}
