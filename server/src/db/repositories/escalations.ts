import type {
  AckVia,
  Escalation,
  EscalationPolicy,
  EscalationPolicyInput,
} from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import type { DB, EscalationsTable } from '../schema.js';
import { fireStep, type FireOutcome } from './escalation-routing.js';
import { parseNumbers, parseStrings, readStored, writeStored } from './escalation-stored.js';

export { fireStep, followEscalation, type FireOutcome } from './escalation-routing.js';

type Db = Kysely<DB>;
type EscalationRow = Selectable<EscalationsTable>;

const iso = (ms: number) => new Date(ms).toISOString();

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
    notifiedUserIds: parseNumbers(r.notified_users),
    warnings: parseStrings(r.warnings),
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
    brokenTargets: [],
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
