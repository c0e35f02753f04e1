import { AlertRules } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  decideAlerts,
  initialAlertState,
  type AlertFacts,
  type AlertState,
} from '../../src/domain/alerting/index.js';
import { reminderGap } from '../../src/domain/alerting/decide.js';

const T0 = Date.parse('2030-03-01T12:00:00Z');

/** A monitor down for `checks` checks a minute apart: the checks that sent a reminder. */
function remindersOver(backoff: 'fixed' | 'linear' | 'exponential', checks: number): number[] {
  const rules = AlertRules.parse({ renotifyEveryChecks: 2, renotifyBackoff: backoff });
  let state: AlertState = initialAlertState;
  const at: number[] = [];
  for (let n = 1; n <= checks; n++) {
    const facts: AlertFacts = {
      at: T0 + n * 60_000,
      monitor: () => ({ id: 1, name: 'Shop', type: 'http', target: 'x' }),
      status: 'down',
      flip: n === 1 ? { from: 'up', to: 'down' } : null,
      outcome: 'down',
      failures: n,
      retries: 0,
      errorCode: 'connect_refused',
      errorMessage: 'refused',
      firstFailureAt: T0 + 60_000,
      certExpiresAt: null,
      maintenance: false,
    };
    const d = decideAlerts({ rules, state, facts });
    state = d.state;
    if (d.events.some((e) => e.kind === 'monitor.still_down')) at.push(n);
  }
  return at;
}

describe('reminder back-off (issue 18 item 9)', () => {
  it('fixed reminds every N checks', () => {
    expect(remindersOver('fixed', 13)).toEqual([3, 5, 7, 9, 11, 13]);
  });
  it('linear waits N, 2N, 3N… checks after the previous alert', () => {
    expect(remindersOver('linear', 21)).toEqual([3, 7, 13, 21]);
  });
  it('exponential waits N, 2N, 4N… checks after the previous alert', () => {
    expect(remindersOver('exponential', 31)).toEqual([3, 7, 15, 31]);
  });
  it('stays a finite number of checks however many reminders went out', () => {
    expect(reminderGap(5, 'exponential', 500)).toBe(5 * 2 ** 30);
  });
  it('starts over after a recovery', () => {
    const rules = AlertRules.parse({ renotifyEveryChecks: 1, renotifyBackoff: 'linear' });
    const base = {
      monitor: () => ({ id: 1, name: 'Shop', type: 'http' as const, target: 'x' }),
      retries: 0,
      errorCode: null,
      errorMessage: null,
      firstFailureAt: null,
      certExpiresAt: null,
      maintenance: false,
    };
    let s: AlertState = {
      ...initialAlertState,
      announced: 'down',
      announcedAtCheck: 1,
      reminders: 3,
    };
    s = decideAlerts({
      rules,
      state: s,
      facts: {
        ...base,
        at: T0,
        status: 'up',
        flip: { from: 'down', to: 'up' },
        outcome: 'up',
        failures: 0,
      },
    }).state;
    expect(s.reminders).toBe(0);
  });
});
