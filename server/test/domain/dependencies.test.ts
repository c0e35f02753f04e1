import { AlertRules } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  decideAlerts,
  initialAlertState,
  type AlertFacts,
} from '../../src/domain/alerting/index.js';
import { cycleThrough, dependencyRoot, linksOf } from '../../src/domain/dependencies/index.js';

const links = (pairs: [number, number][]) =>
  linksOf(pairs.map(([monitorId, parentId]) => ({ monitorId, parentId })));

describe('dependency cycles (ADR 41)', () => {
  it('finds the cycle a new link would close, walked from the monitor back to itself', () => {
    // 2 depends on 1, 3 on 2: giving 1 the parent 3 closes 1 → 3 → 2 → 1.
    expect(
      cycleThrough(
        links([
          [2, 1],
          [3, 2],
        ]),
        1,
        [3],
      ),
    ).toEqual([1, 3, 2, 1]);
  });

  it('allows diamonds and shared parents', () => {
    const l = links([
      [2, 1],
      [3, 1],
      [4, 2],
      [4, 3],
    ]);
    expect(cycleThrough(l, 5, [4, 1])).toBeNull();
    expect(cycleThrough(l, 4, [2, 3])).toBeNull();
  });

  it('replaces the monitor’s current links for the walk', () => {
    // 1 depends on 2 today; giving it no parents and 2 the parent 1 is fine.
    const l = links([[1, 2]]);
    expect(cycleThrough(l, 2, [1])).toEqual([2, 1, 2]);
    expect(cycleThrough(links([]), 2, [1])).toBeNull();
  });

  it('names the self-link as a cycle of one', () => {
    expect(cycleThrough(links([]), 7, [7])).toEqual([7, 7]);
  });

  it('groups under the root reached through first parents', () => {
    const l = links([
      [3, 2],
      [2, 1],
      [4, 9],
    ]);
    expect(dependencyRoot(l, 3)).toBe(1);
    expect(dependencyRoot(l, 1)).toBe(1);
    expect(dependencyRoot(l, 4)).toBe(9);
  });
});

describe('alerts held by a down parent (ADR 41)', () => {
  const rules = AlertRules.parse({});
  const facts = (over: Partial<AlertFacts>): AlertFacts => ({
    at: Date.parse('2030-03-01T12:00:00Z'),
    monitor: () => ({ id: 3, name: 'Web', type: 'http', target: 'x' }),
    status: 'down',
    flip: { from: 'up', to: 'down' },
    outcome: 'down',
    failures: 1,
    retries: 0,
    errorCode: 'connect_refused',
    errorMessage: 'refused',
    firstFailureAt: null,
    certExpiresAt: null,
    maintenance: false,
    ...over,
  });
  const heldBy = { id: 1, name: 'Uplink' };

  it('announces nothing and remembers nothing to recover from while a parent is down', () => {
    const held = decideAlerts({ rules, state: initialAlertState, facts: facts({ heldBy }) });
    expect(held.events).toEqual([]);
    expect(held.state.announced).toBeNull();
    const up = decideAlerts({
      rules,
      state: held.state,
      facts: facts({ status: 'up', flip: { from: 'down', to: 'up' }, outcome: 'up', failures: 0 }),
    });
    expect(up.events).toEqual([]);
  });

  it('never holds a recovery', () => {
    const down = decideAlerts({ rules, state: initialAlertState, facts: facts({}) });
    expect(down.events.map((e) => e.kind)).toEqual(['monitor.down']);
    const up = decideAlerts({
      rules,
      state: down.state,
      facts: facts({
        status: 'up',
        flip: { from: 'down', to: 'up' },
        outcome: 'up',
        failures: 0,
        heldBy,
      }),
    });
    expect(up.events.map((e) => e.kind)).toEqual(['monitor.up']);
  });

  it('announces a child still down at its next check once the parent is back', () => {
    const held = decideAlerts({ rules, state: initialAlertState, facts: facts({ heldBy }) });
    const next = decideAlerts({
      rules,
      state: held.state,
      facts: facts({ flip: null, failures: 2, at: Date.parse('2030-03-01T12:01:00Z') }),
    });
    expect(next.events.map((e) => e.kind)).toEqual(['monitor.down']);
  });
});
