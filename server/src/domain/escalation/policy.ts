import type { AlertEventKind, EscalationStep, EscalationTarget } from '@pagewatch/contract';

const MINUTE_MS = 60_000;

/** A policy as the escalation rules read it. */
export interface PolicyRules {
  steps: readonly EscalationStep[];
  /** Further runs of the whole policy after its last step. */
  repeat: number;
}

/** Where an outage's escalation stands: the next step to fire, in which run, and when. */
export interface EscalationCursor {
  nextStep: number | null;
  cycle: number;
  dueAt: number | null;
}

/** The cursor of a new outage: its first step falls due `waitMinutes` after the DOWN alert. */
export function startCursor(policy: PolicyRules, alertedAt: number): EscalationCursor {
  const first = policy.steps[0];
  if (!first) return { nextStep: null, cycle: 0, dueAt: null };
  return { nextStep: 0, cycle: 0, dueAt: alertedAt + first.waitMinutes * MINUTE_MS };
}

/**
 * The cursor after the step at `cursor` fired. Later steps are timed from the due time of the
 * one before, not from when it actually fired, so a late firing (a restart, a busy database)
 * does not push the whole policy later. A new run of the policy waits at least a minute, so a
 * policy whose first step waits 0 minutes cannot repeat in a tight loop.
 */
export function advance(policy: PolicyRules, cursor: EscalationCursor): EscalationCursor {
  if (cursor.nextStep === null || cursor.dueAt === null) return cursor;
  const following = policy.steps[cursor.nextStep + 1];
  if (following) {
    return {
      nextStep: cursor.nextStep + 1,
      cycle: cursor.cycle,
      dueAt: cursor.dueAt + following.waitMinutes * MINUTE_MS,
    };
  }
  const first = policy.steps[0];
  if (!first || cursor.cycle >= policy.repeat) {
    return { nextStep: null, cycle: cursor.cycle, dueAt: null };
  }
  return {
    nextStep: 0,
    cycle: cursor.cycle + 1,
    dueAt: cursor.dueAt + Math.max(1, first.waitMinutes) * MINUTE_MS,
  };
}

/** What the recipients of a step resolve against. */
export interface TargetContext {
  /** Enabled channels linked to the monitor. */
  monitorChannelIds: readonly number[];
  /** Channels that exist and are enabled now (among those a policy names). */
  liveChannelIds: ReadonlySet<number>;
}

/**
 * The channels a step notifies, each once, in id order. A target that no longer resolves (a
 * deleted or disabled channel) is skipped; if nothing is left the monitor's own channels are
 * used, because an outage must never be routed to nobody.
 */
export function stepChannels(
  targets: readonly EscalationTarget[],
  ctx: TargetContext,
): { channelIds: number[]; fellBack: boolean } {
  const out = new Set<number>();
  for (const t of targets) {
    if (t.kind === 'channel' && ctx.liveChannelIds.has(t.channelId)) out.add(t.channelId);
    if (t.kind === 'monitor_channels') for (const id of ctx.monitorChannelIds) out.add(id);
  }
  if (out.size > 0) return { channelIds: [...out].sort((a, b) => a - b), fellBack: false };
  return { channelIds: [...ctx.monitorChannelIds].sort((a, b) => a - b), fellBack: true };
}

/** Channel ids a policy names directly (to check they still exist). */
export function namedChannelIds(policy: PolicyRules): number[] {
  const ids = new Set<number>();
  for (const s of policy.steps)
    for (const t of s.targets) if (t.kind === 'channel') ids.add(t.channelId);
  return [...ids];
}

/**
 * How a policy takes part in an alert event: `start` opens the outage's escalation, `notified`
 * goes to whoever was notified so far (reminders), `resolve` ends it and tells them; anything
 * else (degraded, flapping, certificates) goes to the monitor's channels as without a policy.
 */
export function policyRole(kind: AlertEventKind): 'start' | 'notified' | 'resolve' | null {
  if (kind === 'monitor.down' || kind === 'heartbeat.missed') return 'start';
  if (kind === 'monitor.still_down') return 'notified';
  if (kind === 'monitor.up') return 'resolve';
  return null;
}

/** The union of channels notified, kept sorted (stored on the escalation). */
export function addNotified(notified: readonly number[], more: readonly number[]): number[] {
  return [...new Set([...notified, ...more])].sort((a, b) => a - b);
}
