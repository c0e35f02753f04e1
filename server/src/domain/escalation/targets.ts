import type { EscalationTarget } from '@pagewatch/contract';
import type { TargetContext } from './policy.js';

/** The person-kind targets of a step, split by kind (ADR 60). */
export interface PeopleTargets {
  userIds: number[];
  scheduleIds: number[];
  everyone: boolean;
}

export function peopleTargets(targets: readonly EscalationTarget[]): PeopleTargets {
  const out: PeopleTargets = { userIds: [], scheduleIds: [], everyone: false };
  for (const t of targets) {
    if (t.kind === 'user' && !out.userIds.includes(t.userId)) out.userIds.push(t.userId);
    if (t.kind === 'schedule' && !out.scheduleIds.includes(t.scheduleId))
      out.scheduleIds.push(t.scheduleId);
    if (t.kind === 'everyone') out.everyone = true;
  }
  return out;
}

/** The channels a step names directly or through the monitor's list; no fallback here. */
export function namedStepChannels(
  targets: readonly EscalationTarget[],
  ctx: TargetContext,
): number[] {
  const out = new Set<number>();
  for (const t of targets) {
    if (t.kind === 'channel' && ctx.liveChannelIds.has(t.channelId)) out.add(t.channelId);
    if (t.kind === 'monitor_channels') for (const id of ctx.monitorChannelIds) out.add(id);
  }
  return [...out].sort((a, b) => a - b);
}

/** A person reachable through one verified contact method. */
export interface Contact {
  userId: number;
  contactId: number;
}

/** What a step reaches once its targets are resolved at fire time. */
export interface StepReach {
  channelIds: number[];
  contacts: Contact[];
  /** Targets that reached nobody, in words for the admins. */
  warnings: string[];
}

/**
 * Puts a step's resolved parts together. A person target that reached nobody (no verified
 * contact method, nobody on call) is never a silent drop: the monitor's channels hear the step
 * too, and the warning is kept. A step that reached nothing at all goes to the monitor's
 * channels, as a step whose channels were all deleted always did.
 */
export function combineReach(
  channelIds: readonly number[],
  contacts: readonly Contact[],
  warnings: readonly string[],
  monitorChannelIds: readonly number[],
): StepReach {
  const channels = new Set(channelIds);
  if (warnings.length > 0 || (channels.size === 0 && contacts.length === 0))
    for (const id of monitorChannelIds) channels.add(id);
  const seen = new Set<number>();
  const unique = contacts.filter((c) => !seen.has(c.contactId) && seen.add(c.contactId));
  return {
    channelIds: [...channels].sort((a, b) => a - b),
    contacts: unique,
    warnings: [...warnings],
  };
}

/** Ids of the users and schedules a policy names (to refuse unknown ones). */
export function namedPeople(steps: readonly { targets: readonly EscalationTarget[] }[]): {
  userIds: number[];
  scheduleIds: number[];
} {
  const p = peopleTargets(steps.flatMap((s) => s.targets));
  return { userIds: p.userIds, scheduleIds: p.scheduleIds };
}
