import type { CheckOutcome } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  applyOutcome,
  displayStatus,
  initialState,
  type MonitorState,
} from '../../src/domain/monitor-state.js';

/** Feeds outcomes through the state machine and returns the statuses and flips seen. */
function replay(outcomes: CheckOutcome[], retries: number, from: MonitorState = initialState) {
  let state = from;
  const statuses: string[] = [];
  const flips: string[] = [];
  for (const o of outcomes) {
    const t = applyOutcome(state, o, retries);
    state = t.next;
    statuses.push(state.status);
    if (t.flip) flips.push(`${t.flip.from}->${t.flip.to}`);
  }
  return { statuses, flips, state };
}

describe('monitor status (SPEC §4)', () => {
  it('a new monitor is pending until its first check', () => {
    expect(initialState.status).toBe('pending');
  });

  it('one successful check makes a pending monitor up', () => {
    expect(replay(['up'], 1)).toMatchObject({ statuses: ['up'], flips: ['pending->up'] });
  });

  it('goes down only after retries + 1 consecutive failures', () => {
    const { statuses, flips } = replay(['up', 'down', 'down'], 1);
    expect(statuses).toEqual(['up', 'up', 'down']);
    expect(flips).toEqual(['pending->up', 'up->down']);
  });

  it('with retries 0 the first failure is down', () => {
    expect(replay(['up', 'down'], 0).flips).toEqual(['pending->up', 'up->down']);
  });

  it('with retries 3 it takes four failures in a row', () => {
    const { statuses } = replay(['up', 'down', 'down', 'down', 'down'], 3);
    expect(statuses).toEqual(['up', 'up', 'up', 'up', 'down']);
  });

  it('a success between failures resets the count', () => {
    const { statuses, flips } = replay(['up', 'down', 'up', 'down', 'up'], 1);
    expect(statuses).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(flips).toEqual(['pending->up']);
  });

  it('a new monitor failing from the start stays pending while retries last', () => {
    expect(replay(['down'], 1).statuses).toEqual(['pending']);
    expect(replay(['down', 'down'], 1).flips).toEqual(['pending->down']);
  });

  it('staying down fires no further events', () => {
    const { flips, state } = replay(['down', 'down', 'down', 'down'], 1);
    expect(flips).toEqual(['pending->down']);
    expect(state.failures).toBe(4);
  });

  it('one successful check returns a down monitor to up', () => {
    const down: MonitorState = { status: 'down', failures: 5 };
    expect(replay(['up'], 1, down)).toMatchObject({
      flips: ['down->up'],
      state: { status: 'up', failures: 0 },
    });
  });

  it('degraded is a delivered check: it flips from up and back without retries', () => {
    const { statuses, flips } = replay(['up', 'degraded', 'degraded', 'up'], 2);
    expect(statuses).toEqual(['up', 'degraded', 'degraded', 'up']);
    expect(flips).toEqual(['pending->up', 'up->degraded', 'degraded->up']);
  });

  it('spaces retries by the retry interval while a failure is being confirmed', () => {
    const first = applyOutcome({ status: 'up', failures: 0 }, 'down', 3);
    expect(first.nextCheck).toBe('retry');
    expect(applyOutcome(first.next, 'down', 3).nextCheck).toBe('retry');
  });

  it('confirms a DOWN with an immediate re-check: the last retry runs at once', () => {
    // retries 1 (the default): the first failure asks for an immediate re-check…
    const first = applyOutcome({ status: 'up', failures: 0 }, 'down', 1);
    expect(first).toMatchObject({ nextCheck: 'confirm', flip: null, next: { status: 'up' } });
    // …whose failure is the DOWN, and then the monitor is checked on its interval again.
    const confirmed = applyOutcome(first.next, 'down', 1);
    expect(confirmed).toMatchObject({ nextCheck: 'interval', next: { status: 'down' } });
    // With more retries only the last one is immediate.
    const third = applyOutcome({ status: 'up', failures: 2 }, 'down', 3);
    expect(third.nextCheck).toBe('confirm');
  });

  it('a blip that the re-check does not see never makes a DOWN', () => {
    const { statuses, flips } = replay(['up', 'down', 'up', 'down', 'up'], 1);
    expect(statuses).toEqual(['up', 'up', 'up', 'up', 'up']);
    expect(flips).toEqual(['pending->up']);
  });

  it('a monitor already down is checked on its interval, not re-checked', () => {
    expect(applyOutcome({ status: 'down', failures: 2 }, 'down', 1).nextCheck).toBe('interval');
  });

  it('paused overrides the checked status', () => {
    expect(displayStatus({ status: 'down', failures: 3 }, true)).toBe('paused');
    expect(displayStatus({ status: 'down', failures: 3 }, false)).toBe('down');
  });
});
