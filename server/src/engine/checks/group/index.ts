import { evaluateGroup, type GroupMember, type GroupRuleSpec } from '../../../domain/group/rule.js';
import type { CheckContext, CheckRun } from '../types.js';
import { noPhases } from '../types.js';

/** Reads members' current statuses; compose wires it to the monitors table (ADR 47). */
export type MemberStatusReader = (ids: readonly number[]) => Promise<GroupMember[]>;

export interface GroupCheckSpec extends GroupRuleSpec {
  members: readonly number[];
}

const run = (
  outcome: CheckRun['outcome'],
  errorCode: CheckRun['errorCode'],
  errorMessage: string | null,
): CheckRun => ({
  outcome,
  latencyMs: null,
  phases: noPhases,
  httpStatus: null,
  errorCode,
  errorMessage,
  responseSize: null,
  certExpiresAt: null,
  details: { certificate: null, assertions: [] },
});

/**
 * A group check: no network, only its members' statuses judged by the group's rule. A member
 * deleted since the group was saved is no longer read (it simply stops counting).
 */
export async function runGroupCheck(
  spec: GroupCheckSpec,
  _ctx: CheckContext,
  read: MemberStatusReader | undefined,
): Promise<CheckRun> {
  if (!read) return run('down', 'internal_error', 'Group members cannot be read in this process');
  let members: GroupMember[];
  try {
    members = await read(spec.members);
  } catch {
    return run('down', 'internal_error', 'The members\u2019 statuses could not be read');
  }
  const verdict = evaluateGroup(spec, members);
  return run(verdict.outcome, verdict.errorCode, verdict.message);
}
