import { AlertRules, type AlertRulesInput, type MonitorStatus } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  decideAlerts,
  decodeAlertState,
  encodeAlertState,
  initialAlertState,
  type AlertState,
} from '../../src/domain/alerting/index.js';

const T0 = Date.parse('2030-03-01T12:00:00Z');
const MIN = 60_000;

/** Combined statuses a quorum decides round after round (ADR 58), through alerting. */
function rounds(rules: AlertRulesInput, statuses: MonitorStatus[]) {
  const parsed = AlertRules.parse(rules);
  let state: AlertState = initialAlertState;
  let previous: MonitorStatus = 'up';
  const out: { round: number; kind: string; previous: string | null; message: string | null }[] =
    [];
  statuses.forEach((status, round) => {
    const at = T0 + round * MIN;
    const failing = status === 'regional' || status === 'down';
    const d = decideAlerts({
      rules: parsed,
      state: decodeAlertState(encodeAlertState(state)),
      facts: {
        at,
        monitor: () => ({ id: 7, name: 'Shop', type: 'http', target: 'x' }),
        status,
        flip: status === previous ? null : { from: previous, to: status },
        outcome: failing ? 'down' : 'up',
        failures: status === 'down' ? 3 : 0,
        retries: 1,
        errorCode: failing ? 'connect_refused' : null,
        errorMessage: failing ? 'Failing from EU West: connection refused' : null,
        firstFailureAt: null,
        certExpiresAt: null,
        maintenance: false,
      },
    });
    state = d.state;
    previous = status;
    for (const e of d.events)
      out.push({
        round,
        kind: e.kind,
        previous: e.previousStatus,
        message: e.cause?.message ?? null,
      });
  });
  return out;
}

describe('the REGIONAL alert rule (ADR 70)', () => {
  it('is off by default: going regional and back says nothing', () => {
    expect(rounds({}, ['up', 'regional', 'regional', 'up'])).toEqual([]);
  });

  it('once opted in, alerts when it goes regional, naming the places, and when it leaves', () => {
    expect(rounds({ notifyRegional: true }, ['up', 'regional', 'regional', 'up', 'up'])).toEqual([
      {
        round: 1,
        kind: 'monitor.regional',
        previous: 'up',
        message: 'Failing from EU West: connection refused',
      },
      { round: 3, kind: 'monitor.up', previous: 'regional', message: null },
    ]);
  });

  it('regional → down → regional → up: each change told once, one recovery at the end', () => {
    const events = rounds({ notifyRegional: true }, ['regional', 'down', 'regional', 'up']);
    expect(events.map((e) => [e.round, e.kind, e.previous])).toEqual([
      [0, 'monitor.regional', 'up'],
      [1, 'monitor.down', 'regional'],
      [2, 'monitor.regional', 'down'],
      [3, 'monitor.up', 'regional'],
    ]);
  });

  it('without the rule, a down that becomes regional stays announced down until it is up', () => {
    const events = rounds({}, ['down', 'regional', 'up']);
    expect(events.map((e) => [e.round, e.kind, e.previous])).toEqual([
      [0, 'monitor.down', 'up'],
      [2, 'monitor.up', 'down'],
    ]);
  });
});
