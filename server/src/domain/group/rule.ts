import type { GroupRule, MonitorStatus } from '@pagewatch/contract';

/** One member as the group sees it: its current status from the monitors table. */
export interface GroupMember {
  id: number;
  name: string;
  status: MonitorStatus;
}

export interface GroupRuleSpec {
  rule: GroupRule;
  /** For `percent_up`: the least share (1–100) of counted members that must be up. */
  minUpPercent: number;
}

export interface GroupVerdict {
  outcome: 'up' | 'degraded' | 'down';
  errorCode: 'group_members_down' | 'group_members_degraded' | null;
  message: string | null;
  counted: number;
  up: number;
}

/** Members whose status says nothing about the service now (ADR 47): left out of the rule. */
const notCounted = new Set<MonitorStatus>(['paused', 'maintenance', 'pending']);

const names = (ms: readonly GroupMember[]): string =>
  ms
    .slice(0, 5)
    .map((m) => m.name)
    .join(', ') + (ms.length > 5 ? ` and ${ms.length - 5} more` : '');

/**
 * A group's status from its members' (ADR 47). Paused, in-maintenance and pending members are
 * left out; a group with none counted is up (nothing known is failing).
 * - `all_up`: up only when every counted member is up; a degraded or down one makes it down.
 * - `any_down`: down when any counted member is down; else degraded when one is degraded.
 * - `percent_up`: down when fewer than `minUpPercent` % of counted members are up (a degraded
 *   member is up: it answers); else degraded when any member is down or degraded.
 */
export function evaluateGroup(spec: GroupRuleSpec, members: readonly GroupMember[]): GroupVerdict {
  const counted = members.filter((m) => !notCounted.has(m.status));
  const down = counted.filter((m) => m.status === 'down');
  const degraded = counted.filter((m) => m.status === 'degraded');
  const up = counted.length - down.length - degraded.length;
  const result = (outcome: GroupVerdict['outcome'], message: string | null): GroupVerdict => ({
    outcome,
    errorCode:
      outcome === 'down'
        ? 'group_members_down'
        : outcome === 'degraded'
          ? 'group_members_degraded'
          : null,
    message,
    counted: counted.length,
    up,
  });
  const of = `of ${counted.length} member${counted.length === 1 ? '' : 's'}`;
  const downText = down.length > 0 ? `${down.length} ${of} down: ${names(down)}` : null;
  const degradedText =
    degraded.length > 0 ? `${degraded.length} ${of} degraded: ${names(degraded)}` : null;
  const both = [downText, degradedText].filter((t) => t !== null).join('; ');
  if (counted.length === 0) return result('up', null);
  switch (spec.rule) {
    case 'all_up':
      return down.length + degraded.length > 0
        ? result('down', `Not all members are up: ${both}`)
        : result('up', null);
    case 'any_down':
      if (down.length > 0)
        return result('down', `${downText}${degradedText ? `; ${degradedText}` : ''}`);
      return degraded.length > 0 ? result('degraded', degradedText) : result('up', null);
    case 'percent_up': {
      const answering = up + degraded.length;
      const percent = (answering / counted.length) * 100;
      if (percent < spec.minUpPercent)
        return result(
          'down',
          `${answering} ${of} up (${Math.floor(percent)} %), fewer than ${spec.minUpPercent} %: ${both}`,
        );
      return both === '' ? result('up', null) : result('degraded', both);
    }
  }
}

/**
 * The first cycle a group's members would close (ADR 47): the path from the group through its
 * member groups back to it, as monitor ids, or null. `membersOf` gives the stored members of
 * other groups (the proposed ones of `groupId` are passed in).
 */
export function groupCycle(
  groupId: number,
  proposed: readonly number[],
  membersOf: (id: number) => readonly number[] | undefined,
): number[] | null {
  const seen = new Set<number>();
  const walk = (id: number, path: number[]): number[] | null => {
    if (id === groupId) return [...path, id];
    if (seen.has(id)) return null;
    seen.add(id);
    for (const next of membersOf(id) ?? []) {
      const found = walk(next, [...path, id]);
      if (found) return found;
    }
    return null;
  };
  for (const m of proposed) {
    const found = walk(m, [groupId]);
    if (found) return found;
  }
  return null;
}
