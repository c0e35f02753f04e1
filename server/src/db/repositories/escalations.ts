import {
  AlertRules,
  EscalationStep,
  QuietHoursWindow,
  type AlertEvent,
  type AckVia,
  type Escalation,
  type EscalationPolicy,
  type EscalationPolicyInput,
} from '@pagewatch/contract';
import { z } from 'zod';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  addNotified,
  advance,
  namedChannelIds,
  policyRole,
  startCursor,
  stepChannels,
  type EscalationCursor,
  type PolicyRules,
} from '../../domain/escalation/index.js';
import { sendTime } from '../../domain/quiet-hours/index.js';
import type { DB, EscalationsTable } from '../schema.js';
import { channelsOfMonitors, enqueueMonitorAlerts, insertFor } from './deliveries.js';

type Db = Kysely<DB> | Transaction<DB>;
type EscalationRow = Selectable<EscalationsTable>;

const iso = (ms: number) => new Date(ms).toISOString();
const StoredSteps = z.array(EscalationStep);
const StoredQuiet = z.array(QuietHoursWindow);

/**
 * The `steps` column: the steps array, or `{steps, quietHours}` once a policy has quiet hours
 * (added after migration 027 shipped, so it rides in the same JSON instead of a new column).
 */
function readStored(
  json: string,
): { steps: EscalationStep[]; quietHours: QuietHoursWindow[] } | null {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  const o = Array.isArray(v) ? { steps: v, quietHours: [] } : (v as Record<string, unknown>);
  const steps = StoredSteps.safeParse(o?.steps);
  if (!steps.success) return null;
  return { steps: steps.data, quietHours: StoredQuiet.safeParse(o.quietHours ?? []).data ?? [] };
}

const writeStored = (input: EscalationPolicyInput) =>
  JSON.stringify(
    (input.quietHours ?? []).length > 0
      ? { steps: input.steps, quietHours: input.quietHours }
      : input.steps,
  );

function parseNumbers(json: string): number[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

type StoredPolicy = PolicyRules & { quietHours: QuietHoursWindow[] };

async function policyRules(db: Db, id: number | null): Promise<StoredPolicy | null> {
  if (id === null) return null;
  const row = await db
    .selectFrom('escalation_policies')
    .select(['steps', 'repeat_count'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const stored = readStored(row.steps);
  return stored ? { ...stored, repeat: row.repeat_count } : null;
}

/** The monitor's severity, from its alert rules; critical when unreadable (never delayed). */
async function severityOf(db: Db, monitorId: number): Promise<'critical' | 'warning'> {
  const row = await db
    .selectFrom('monitors')
    .select('alert_rules')
    .where('id', '=', monitorId)
    .executeTakeFirst();
  if (!row?.alert_rules) return 'critical';
  try {
    return AlertRules.safeParse(JSON.parse(row.alert_rules)).data?.severity ?? 'critical';
  } catch {
    return 'critical';
  }
}

/** When a policy's message may go: quiet hours hold a warning back (ADR 39), never drop it. */
async function sendAtFor(db: Db, policy: StoredPolicy | null, monitorId: number, at: number) {
  if (!policy || policy.quietHours.length === 0) return at;
  const severity = await severityOf(db, monitorId);
  return sendTime({ severity, at, windows: policy.quietHours }).sendAt;
}

async function liveChannels(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_channels')
    .select('id')
    .where('id', 'in', ids)
    .where('enabled', '=', 1)
    .execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** An outage's escalation, as the API shows it. */
export function toEscalation(r: EscalationRow): Escalation {
  return {
    id: Number(r.id),
    monitorId: Number(r.monitor_id),
    policyId: r.policy_id === null ? null : Number(r.policy_id),
    startedAt: iso(Number(r.started_at)),
    nextStep: r.next_step === null ? null : Number(r.next_step),
    cycle: Number(r.cycle),
    nextDueAt: r.next_due_at === null ? null : iso(Number(r.next_due_at)),
    notifiedChannelIds: parseNumbers(r.notified),
    acknowledgement:
      r.acked_at === null
        ? null
        : {
            at: iso(Number(r.acked_at)),
            by: r.acked_by ?? 'someone',
            via: (r.acked_via ?? 'api') as AckVia,
          },
    resolvedAt: r.resolved_at === null ? null : iso(Number(r.resolved_at)),
  };
}

/** What firing one step did: rows queued, and whether the step was this caller's to fire. */
export interface FireOutcome {
  fired: boolean;
  queued: number;
  /** How late the step fired against its due time, in ms. */
  lateMs: number;
}

/**
 * Fires the step the escalation's cursor points at, if it still does: the cursor moves by a
 * compare-and-set on (next_step, cycle), so two callers (the result write and the job, or two
 * processes) never both fire one step, and the deliveries' idempotency keys name the step.
 */
export async function fireStep(
  trx: Transaction<DB>,
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
  // channels hear it, once, and the escalation ends.
  const step = policy?.steps[cursor.nextStep!];
  const targets =
    policy && step
      ? stepChannels(step.targets, {
          monitorChannelIds,
          liveChannelIds: await liveChannels(trx, namedChannelIds(policy)),
        }).channelIds
      : monitorChannelIds;
  const next: EscalationCursor =
    policy && step ? advance(policy, cursor) : { nextStep: null, cycle: cursor.cycle, dueAt: null };
  const notified = addNotified(parseNumbers(row.notified), targets);
  const moved = await trx
    .updateTable('escalations')
    .set({
      next_step: next.nextStep,
      cycle: next.cycle,
      next_due_at: next.dueAt,
      notified: JSON.stringify(notified),
    })
    .where('id', '=', row.id)
    .where('next_step', '=', cursor.nextStep!)
    .where('cycle', '=', cursor.cycle)
    .where('acked_at', 'is', null)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return none;
  const event = { ...(JSON.parse(row.event) as AlertEvent) };
  event.escalation = { id: Number(row.id), acknowledgedBy: null };
  const queued = await insertFor(
    trx,
    targets,
    {
      event,
      orderKey: `m:${monitorId}`,
      monitorId,
      key: `e:${row.id}:${cursor.cycle}.${cursor.nextStep}:${event.kind}`,
    },
    now,
    await sendAtFor(trx, policy, monitorId, now),
  );
  return { fired: true, queued, lateMs: Math.max(0, dueBy - cursor.dueAt!) };
}

async function latestOpen(trx: Db, monitorId: number) {
  return trx
    .selectFrom('escalations')
    .selectAll()
    .where('monitor_id', '=', monitorId)
    .where('resolved_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Alerting of one result write under an escalation policy, in the write's transaction.
 * Outage events (down, reminders, recovery) follow the policy; everything else goes to the
 * monitor's channels as before. Returns the rows queued.
 */
export async function followEscalation(
  trx: Transaction<DB>,
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
      if (!policy) {
        plain.push(event);
        continue;
      }
      const cursor = startCursor(policy, at);
      const inserted = await trx
        .insertInto('escalations')
        .values({
          monitor_id: monitorId,
          policy_id: policyId,
          outage_key: `m:${monitorId}:${resultKey}:${i}`,
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
      // Still earlier outages left open (a restart between down and up) end here: one at a time.
      if (inserted) {
        await trx
          .updateTable('escalations')
          .set({ resolved_at: at, next_due_at: null, next_step: null })
          .where('monitor_id', '=', monitorId)
          .where('resolved_at', 'is', null)
          .where('id', '<', inserted.id)
          .execute();
        if (cursor.dueAt !== null && cursor.dueAt <= at) {
          queued += (await fireStep(trx, inserted, at)).queued;
        }
      }
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
      const notified = parseNumbers(open.notified);
      const policy = await policyRules(
        trx,
        open.policy_id === null ? null : Number(open.policy_id),
      );
      const routed: AlertEvent = {
        ...event,
        escalation: { id, acknowledgedBy: open.acked_by ?? null },
      };
      queued += await insertFor(
        trx,
        notified,
        {
          event: routed,
          orderKey: `m:${monitorId}`,
          monitorId,
          key: `m:${monitorId}:${resultKey}:${event.kind}:${i}`,
        },
        at,
        await sendAtFor(trx, policy, monitorId, at),
      );
      continue;
    }
    plain.push(event);
  }
  if (plain.length > 0) queued += await enqueueMonitorAlerts(trx, monitorId, plain, at, resultKey);
  return queued;
}

function toPolicy(
  r: Selectable<DB['escalation_policies']>,
  monitorIds: number[],
): EscalationPolicy {
  const stored = readStored(r.steps);
  return {
    id: Number(r.id),
    name: r.name,
    steps: stored?.steps ?? [],
    repeat: Number(r.repeat_count),
    quietHours: stored?.quietHours ?? [],
    monitorIds,
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

/** Monitors whose alert rules name each policy (rules are JSON; policies are few). */
async function monitorsByPolicy(db: Db): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('monitors')
    .select(['id', 'alert_rules'])
    .where('alert_rules', 'like', '%escalationPolicyId%')
    .orderBy('id')
    .execute();
  const out = new Map<number, number[]>();
  for (const r of rows) {
    let id: unknown;
    try {
      id = (JSON.parse(r.alert_rules ?? 'null') as { escalationPolicyId?: unknown } | null)
        ?.escalationPolicyId;
    } catch {
      continue;
    }
    if (typeof id !== 'number') continue;
    out.set(id, [...(out.get(id) ?? []), Number(r.id)]);
  }
  return out;
}

export function escalationsRepository(db: Kysely<DB>) {
  return {
    async listPolicies(): Promise<EscalationPolicy[]> {
      const [rows, used] = await Promise.all([
        db.selectFrom('escalation_policies').selectAll().orderBy('name').orderBy('id').execute(),
        monitorsByPolicy(db),
      ]);
      return rows.map((r) => toPolicy(r, used.get(Number(r.id)) ?? []));
    },

    async findPolicy(id: number): Promise<EscalationPolicy | null> {
      const row = await db
        .selectFrom('escalation_policies')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return toPolicy(row, (await monitorsByPolicy(db)).get(id) ?? []);
    },

    async createPolicy(input: EscalationPolicyInput, now: number): Promise<number> {
      const row = await db
        .insertInto('escalation_policies')
        .values({
          name: input.name,
          steps: writeStored(input),
          repeat_count: input.repeat,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async updatePolicy(id: number, input: EscalationPolicyInput, now: number): Promise<boolean> {
      const r = await db
        .updateTable('escalation_policies')
        .set({
          name: input.name,
          steps: writeStored(input),
          repeat_count: input.repeat,
          updated_at: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async deletePolicy(id: number): Promise<boolean> {
      const r = await db.deleteFrom('escalation_policies').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    /** Channels among `ids` that exist (enabled or not). */
    async existingChannels(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('notification_channels')
        .select('id')
        .where('id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => Number(r.id)));
    },

    async find(id: number): Promise<Escalation | null> {
      const row = await db
        .selectFrom('escalations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toEscalation(row) : null;
    },

    async list(filter: { monitorId?: number; open?: boolean }, limit = 100): Promise<Escalation[]> {
      let q = db.selectFrom('escalations').selectAll().orderBy('id', 'desc').limit(limit);
      if (filter.monitorId !== undefined) q = q.where('monitor_id', '=', filter.monitorId);
      if (filter.open === true)
        q = q.where('acked_at', 'is', null).where('resolved_at', 'is', null);
      if (filter.open === false)
        q = q.where((eb) =>
          eb.or([eb('acked_at', 'is not', null), eb('resolved_at', 'is not', null)]),
        );
      return (await q.execute()).map(toEscalation);
    },

    /**
     * Fires every step due by `dueBy`, oldest first, each in its own transaction (a failure
     * leaves the others). Returns what fired, for the outbox signal and the lateness figures.
     */
    async fireDue(dueBy: number, now: number, limit = 500): Promise<FireOutcome[]> {
      const due = await db
        .selectFrom('escalations')
        .selectAll()
        .where('next_due_at', '<=', dueBy)
        .where('acked_at', 'is', null)
        .where('resolved_at', 'is', null)
        .orderBy('next_due_at')
        .limit(limit)
        .execute();
      const out: FireOutcome[] = [];
      for (const row of due) {
        out.push(await db.transaction().execute((trx) => fireStep(trx, row, now, dueBy)));
      }
      return out;
    },

    /**
     * Acknowledges a running escalation: it stops, and the monitor's open automatic incident
     * gets a private update saying who, when and through what. Null when it was not running
     * (already acknowledged, resolved, or unknown): a second click changes nothing.
     */
    async acknowledge(
      id: number,
      who: { label: string; userId: number | null },
      via: AckVia,
      now: number,
    ): Promise<Escalation | null> {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('escalations')
          .set({
            acked_at: now,
            acked_by: who.label,
            acked_via: via,
            next_due_at: null,
            next_step: null,
          })
          .where('id', '=', id)
          .where('acked_at', 'is', null)
          .where('resolved_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return null;
        const row = await trx
          .selectFrom('escalations')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const incident = await trx
          .selectFrom('incidents')
          .select(['id', 'state'])
          .where('monitor_id', '=', row.monitor_id)
          .where('automatic', '=', 1)
          .where('resolved_at', 'is', null)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (incident) {
          const through = { link: 'the link in an alert', ui: 'the web app', api: 'the API' }[via];
          await trx
            .insertInto('incident_updates')
            .values({
              incident_id: incident.id,
              at: now,
              state: incident.state,
              message: `Acknowledged by ${who.label} through ${through}; escalation stopped.`,
              public: 0,
              automatic: 1,
              author_id: who.userId,
              author_label: who.label,
            })
            .execute();
          await trx
            .updateTable('incidents')
            .set({ updated_at: now })
            .where('id', '=', incident.id)
            .execute();
        }
        return toEscalation(row);
      });
    },
  };
}

export type EscalationsRepository = ReturnType<typeof escalationsRepository>;
