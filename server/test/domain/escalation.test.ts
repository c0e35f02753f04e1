import { describe, expect, it } from 'vitest';
import {
  addNotified,
  advance,
  policyRole,
  startCursor,
  stepChannels,
  type EscalationCursor,
  type PolicyRules,
} from '../../src/domain/escalation/index.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-27T02:00:00Z');

/** Step 0 at once to the team channel, step 1 after 10 minutes to the manager, run twice. */
const policy: PolicyRules = {
  steps: [
    { waitMinutes: 0, targets: [{ kind: 'channel', channelId: 1 }] },
    { waitMinutes: 10, targets: [{ kind: 'channel', channelId: 2 }] },
  ],
  repeat: 1,
};

function walk(p: PolicyRules, start: number): EscalationCursor[] {
  const out: EscalationCursor[] = [];
  let c = startCursor(p, start);
  while (c.nextStep !== null) {
    out.push(c);
    c = advance(p, c);
  }
  return out;
}

describe('escalation policy timing', () => {
  it('fires each step its wait after the one before, then repeats the policy, then ends', () => {
    expect(walk(policy, T0)).toEqual([
      { nextStep: 0, cycle: 0, dueAt: T0 },
      { nextStep: 1, cycle: 0, dueAt: T0 + 10 * MIN },
      // The repeat's first step waits 0 minutes, stretched to 1 so a policy cannot spin.
      { nextStep: 0, cycle: 1, dueAt: T0 + 11 * MIN },
      { nextStep: 1, cycle: 1, dueAt: T0 + 21 * MIN },
    ]);
  });

  it('times steps from the due time before, so a late firing does not push the policy later', () => {
    const first = startCursor(policy, T0);
    // However late step 0 actually fired, step 1 stays due 10 minutes after step 0's due time.
    expect(advance(policy, first).dueAt).toBe(T0 + 10 * MIN);
  });

  it('a policy without repeats ends after its last step', () => {
    const once = { ...policy, repeat: 0 };
    expect(walk(once, T0).map((c) => c.nextStep)).toEqual([0, 1]);
    const last = advance(once, advance(once, startCursor(once, T0)));
    expect(last).toEqual({ nextStep: null, cycle: 0, dueAt: null });
  });

  it('a first step with a wait is due that long after the DOWN alert', () => {
    const later = { steps: [{ ...policy.steps[1]! }], repeat: 0 };
    expect(startCursor(later, T0)).toEqual({ nextStep: 0, cycle: 0, dueAt: T0 + 10 * MIN });
  });
});

describe('who a step notifies', () => {
  const ctx = { monitorChannelIds: [7, 3], liveChannelIds: new Set([1, 2]) };

  it('names each channel once, the monitor’s own included, in id order', () => {
    expect(
      stepChannels(
        [
          { kind: 'channel', channelId: 2 },
          { kind: 'monitor_channels' },
          { kind: 'channel', channelId: 2 },
          { kind: 'channel', channelId: 1 },
        ],
        ctx,
      ),
    ).toEqual({ channelIds: [1, 2, 3, 7], fellBack: false });
  });

  it('skips a channel deleted or disabled since the policy was saved', () => {
    expect(
      stepChannels(
        [
          { kind: 'channel', channelId: 9 },
          { kind: 'channel', channelId: 1 },
        ],
        ctx,
      ),
    ).toEqual({ channelIds: [1], fellBack: false });
  });

  it('falls back to the monitor’s channels when nothing named is left: never to nobody', () => {
    expect(stepChannels([{ kind: 'channel', channelId: 9 }], ctx)).toEqual({
      channelIds: [3, 7],
      fellBack: true,
    });
  });

  it('remembers everyone notified, each once', () => {
    expect(addNotified([3, 1], [2, 3])).toEqual([1, 2, 3]);
  });
});

describe('which events a policy routes', () => {
  it('starts on down and missed heartbeats, reminds and resolves the notified, leaves the rest', () => {
    expect(policyRole('monitor.down')).toBe('start');
    expect(policyRole('heartbeat.missed')).toBe('start');
    expect(policyRole('monitor.still_down')).toBe('notified');
    expect(policyRole('monitor.up')).toBe('resolve');
    expect(policyRole('monitor.degraded')).toBeNull();
    expect(policyRole('monitor.flapping')).toBeNull();
    expect(policyRole('certificate.expiring')).toBeNull();
  });
});
