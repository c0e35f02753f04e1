import {
  AlertRules,
  EscalationStep,
  QuietHoursWindow,
  type EscalationPolicyInput,
} from '@pagewatch/contract';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { PolicyRules } from '../../domain/escalation/index.js';
import type { DB } from '../schema.js';

type Db = Kysely<DB> | Transaction<DB>;
const StoredSteps = z.array(EscalationStep);
const StoredQuiet = z.array(QuietHoursWindow);

/**
 * The `steps` column: the steps array, or `{steps, quietHours}` once a policy has quiet hours
 * (added after migration 027 shipped, so it rides in the same JSON instead of a new column).
 */
export function readStored(
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

export const writeStored = (input: EscalationPolicyInput) =>
  JSON.stringify(
    (input.quietHours ?? []).length > 0
      ? { steps: input.steps, quietHours: input.quietHours }
      : input.steps,
  );

export function parseNumbers(json: string | null | undefined): number[] {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
}

export function parseStrings(json: string | null | undefined): string[] {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

export type StoredPolicy = PolicyRules & { quietHours: QuietHoursWindow[] };

export async function policyRules(db: Db, id: number | null): Promise<StoredPolicy | null> {
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
export async function severityOf(db: Db, monitorId: number): Promise<'critical' | 'warning'> {
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

/**
 * The policy a monitor's tags name (ADR 61): of several tags with a policy, the one whose tag
 * sorts first wins, so the answer does not depend on the order tags were typed in.
 */
export async function tagPolicyOf(
  db: Db,
  tagsJson: string | null | undefined,
): Promise<number | null> {
  if (!tagsJson || tagsJson === '[]') return null;
  let tags: unknown;
  try {
    tags = JSON.parse(tagsJson);
  } catch {
    return null;
  }
  if (!Array.isArray(tags) || tags.length === 0) return null;
  const names = tags.filter((t): t is string => typeof t === 'string');
  if (names.length === 0) return null;
  const row = await db
    .selectFrom('tag_policies')
    .select('policy_id')
    .where('tag', 'in', names)
    .orderBy('tag')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.policy_id) : null;
}
