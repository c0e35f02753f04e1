import { describe, expect, it } from 'vitest';
import {
  combineReach,
  namedPeople,
  namedStepChannels,
  peopleTargets,
} from '../../src/domain/escalation/index.js';

describe('escalation step targets (ADR 60)', () => {
  const ctx = { monitorChannelIds: [7, 3], liveChannelIds: new Set([1, 2]) };

  it('splits people, schedules and everyone, each once', () => {
    expect(
      peopleTargets([
        { kind: 'user', userId: 4 },
        { kind: 'schedule', scheduleId: 9 },
        { kind: 'user', userId: 4 },
        { kind: 'everyone' },
        { kind: 'channel', channelId: 1 },
      ]),
    ).toEqual({ userIds: [4], scheduleIds: [9], everyone: true });
  });

  it('names live channels and the monitor’s own, without falling back', () => {
    expect(
      namedStepChannels(
        [
          { kind: 'channel', channelId: 2 },
          { kind: 'channel', channelId: 5 },
          { kind: 'user', userId: 1 },
        ],
        ctx,
      ),
    ).toEqual([2]);
    expect(namedStepChannels([{ kind: 'monitor_channels' }], ctx)).toEqual([3, 7]);
  });

  it('a person reached: only them; contacts de-duplicated', () => {
    const c = { userId: 4, contactId: 11 };
    expect(combineReach([], [c, c], [], [3, 7])).toEqual({
      channelIds: [],
      contacts: [c],
      warnings: [],
    });
  });

  it('a target that reached nobody adds the monitor’s channels and keeps the warning', () => {
    const r = combineReach([2], [], ['“Dan” has no verified contact method'], [7, 3]);
    expect(r.channelIds).toEqual([2, 3, 7]);
    expect(r.warnings).toHaveLength(1);
  });

  it('a step that reached nothing at all goes to the monitor’s channels', () => {
    expect(combineReach([], [], [], [7, 3]).channelIds).toEqual([3, 7]);
  });

  it('lists the people and schedules a policy names, to check they exist', () => {
    expect(
      namedPeople([
        { targets: [{ kind: 'user', userId: 1 }] },
        {
          targets: [
            { kind: 'schedule', scheduleId: 2 },
            { kind: 'user', userId: 1 },
          ],
        },
      ]),
    ).toEqual({ userIds: [1], scheduleIds: [2] });
  });
});
