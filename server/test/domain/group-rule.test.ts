import type { MonitorStatus } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { evaluateGroup, groupCycle } from '../../src/domain/group/rule.js';

const members = (...statuses: MonitorStatus[]) =>
  statuses.map((status, i) => ({ id: i + 1, name: `m${i + 1}`, status }));

describe('a group monitor’s rule', () => {
  it('any down: down when one member is down, degraded when one is degraded, else up', () => {
    const spec = { rule: 'any_down' as const, minUpPercent: 100 };
    expect(evaluateGroup(spec, members('up', 'up')).outcome).toBe('up');
    const down = evaluateGroup(spec, members('up', 'down', 'degraded'));
    expect(down).toMatchObject({ outcome: 'down', errorCode: 'group_members_down' });
    expect(down.message).toBe('1 of 3 members down: m2; 1 of 3 members degraded: m3');
    expect(evaluateGroup(spec, members('up', 'degraded'))).toMatchObject({
      outcome: 'degraded',
      errorCode: 'group_members_degraded',
    });
  });

  it('all up: any member not up (degraded too) makes the group down', () => {
    const spec = { rule: 'all_up' as const, minUpPercent: 100 };
    expect(evaluateGroup(spec, members('up', 'up')).outcome).toBe('up');
    expect(evaluateGroup(spec, members('up', 'degraded')).outcome).toBe('down');
  });

  it('at least X % up: down below the share, degraded at or above it while a member fails', () => {
    const spec = { rule: 'percent_up' as const, minUpPercent: 50 };
    expect(evaluateGroup(spec, members('up', 'down', 'up', 'down')).outcome).toBe('degraded');
    const below = evaluateGroup(spec, members('up', 'down', 'down', 'down'));
    expect(below.outcome).toBe('down');
    expect(below.message).toMatch(/^1 of 4 members up \(25 %\), fewer than 50 %/);
    // A degraded member answers: it counts as up for the share.
    expect(evaluateGroup(spec, members('degraded', 'down')).outcome).toBe('degraded');
    expect(evaluateGroup(spec, members('up', 'up')).outcome).toBe('up');
  });

  it('leaves paused, maintenance and pending members out; none counted is up', () => {
    const spec = { rule: 'all_up' as const, minUpPercent: 100 };
    expect(evaluateGroup(spec, members('up', 'paused', 'maintenance', 'pending'))).toMatchObject({
      outcome: 'up',
      counted: 1,
    });
    expect(evaluateGroup(spec, members('paused', 'maintenance')).outcome).toBe('up');
  });

  it('names more than five failing members by count', () => {
    const spec = { rule: 'any_down' as const, minUpPercent: 100 };
    const v = evaluateGroup(spec, members('down', 'down', 'down', 'down', 'down', 'down', 'down'));
    expect(v.message).toBe('7 of 7 members down: m1, m2, m3, m4, m5 and 2 more');
  });
});

describe('group cycles', () => {
  it('finds the path back to the group through member groups', () => {
    const stored = new Map<number, number[]>([
      [2, [3]],
      [3, [1]],
    ]);
    expect(groupCycle(1, [5, 2], (id) => stored.get(id))).toEqual([1, 2, 3, 1]);
    expect(groupCycle(1, [5], (id) => stored.get(id))).toBeNull();
  });
});
