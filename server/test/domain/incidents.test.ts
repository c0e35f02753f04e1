import type { CheckOutcome } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  applyStateChange,
  autoIncidentAction,
  formatDuration,
  openedMessage,
  resolvedMessage,
} from '../../src/domain/incidents.js';
import { applyOutcome, initialState, type MonitorState } from '../../src/domain/monitor-state.js';

describe('outage duration text', () => {
  it.each([
    [0, '0 s'],
    [999, '0 s'],
    [12_000, '12 s'],
    [60_000, '1 min'],
    [252_000, '4 min 12 s'],
    [3_600_000, '1 h'],
    [7_500_000, '2 h 5 min'],
    [7_529_000, '2 h 5 min'],
    [3_600_000 + 30_000, '1 h'],
    [86_400_000 * 3 + 4 * 3_600_000 + 59_000, '3 d 4 h'],
    [-5, '0 s'],
  ])('%i ms reads "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('the automatic resolution names the duration', () => {
    expect(resolvedMessage(252_000)).toBe('Resolved automatically: back up after 4 min 12 s');
  });

  it('the automatic opening names the cause when there is one', () => {
    expect(openedMessage({ at: 0, code: 'http_status', message: 'HTTP 503' })).toContain(
      'HTTP 503',
    );
    expect(openedMessage({ at: 0, code: 'timeout', message: null })).toContain('timeout');
    expect(openedMessage(null)).toBe('Opened automatically: the monitor is down.');
  });
});

describe('incident states (SPEC §4)', () => {
  const open = { state: 'investigating' as const, resolvedAt: null };

  it('moves forward through identified and monitoring without a resolution time', () => {
    expect(applyStateChange(open, 'identified', 10)).toEqual({
      state: 'identified',
      resolvedAt: null,
    });
    expect(applyStateChange(open, 'monitoring', 10).resolvedAt).toBeNull();
  });

  it('resolving stamps the time once; a later note on a resolved incident keeps it', () => {
    const resolved = applyStateChange(open, 'resolved', 100);
    expect(resolved).toEqual({ state: 'resolved', resolvedAt: 100 });
    expect(applyStateChange(resolved, 'resolved', 500)).toEqual(resolved);
  });

  it('an update in an open state reopens a resolved incident', () => {
    expect(applyStateChange({ state: 'resolved', resolvedAt: 100 }, 'investigating', 200)).toEqual({
      state: 'investigating',
      resolvedAt: null,
    });
  });
});

describe('automatic incidents follow the confirmed status', () => {
  it('a down write outside maintenance may open one; inside maintenance it does not', () => {
    const flip = { from: 'up' as const, to: 'down' as const };
    expect(autoIncidentAction({ status: 'down', flip, maintenance: false })).toBe('open');
    expect(autoIncidentAction({ status: 'down', flip: null, maintenance: false })).toBe('open');
    expect(autoIncidentAction({ status: 'down', flip, maintenance: true })).toBeNull();
  });

  it('a flip to up or degraded resolves; other writes leave incidents alone', () => {
    expect(
      autoIncidentAction({ status: 'up', flip: { from: 'down', to: 'up' }, maintenance: false }),
    ).toBe('resolve');
    expect(
      autoIncidentAction({
        status: 'degraded',
        flip: { from: 'down', to: 'degraded' },
        maintenance: false,
      }),
    ).toBe('resolve');
    // After an edit the monitor starts from pending: its first up check still closes the outage.
    expect(
      autoIncidentAction({ status: 'up', flip: { from: 'pending', to: 'up' }, maintenance: false }),
    ).toBe('resolve');
    expect(autoIncidentAction({ status: 'up', flip: null, maintenance: false })).toBeNull();
    expect(autoIncidentAction({ status: 'pending', flip: null, maintenance: false })).toBeNull();
  });
});

describe('the cause of an outage is the first failure of its streak', () => {
  function run(steps: [CheckOutcome, string | null][], retries: number, from = initialState) {
    let state: MonitorState = from;
    steps.forEach(([outcome, message], i) => {
      state = applyOutcome(state, outcome, retries, {
        at: (i + 1) * 1000,
        code: outcome === 'down' ? 'http_status' : null,
        message,
      }).next;
    });
    return state;
  }

  it('carries the first failing check, not the confirming one, into the down state', () => {
    const state = run(
      [
        ['up', null],
        ['down', 'HTTP 503'],
        ['down', 'HTTP 502'],
        ['down', 'HTTP 500'],
      ],
      2,
    );
    expect(state.status).toBe('down');
    expect(state.firstFailure).toEqual({ at: 2000, code: 'http_status', message: 'HTTP 503' });
  });

  it('keeps it while the monitor stays down', () => {
    const state = run(
      [
        ['down', 'first'],
        ['down', 'second'],
        ['down', 'third'],
        ['down', 'fourth'],
      ],
      1,
    );
    expect(state.firstFailure?.message).toBe('first');
  });

  it('a success ends the streak: the next outage has its own first failure', () => {
    const state = run(
      [
        ['down', 'old'],
        ['up', null],
        ['down', 'new'],
        ['down', 'confirming'],
      ],
      1,
    );
    expect(state.status).toBe('down');
    expect(state.firstFailure).toMatchObject({ at: 3000, message: 'new' });
  });

  it('degraded is a delivered check and clears the streak too', () => {
    expect(
      run(
        [
          ['down', 'x'],
          ['degraded', null],
        ],
        1,
      ).firstFailure,
    ).toBeNull();
  });

  it('after a restart mid-streak (no first failure kept) the next failure stands in', () => {
    const restored: MonitorState = { status: 'up', failures: 1 };
    const state = run([['down', 'after restart']], 1, restored);
    expect(state).toMatchObject({ status: 'down', firstFailure: { message: 'after restart' } });
  });
});
