import {
  AlertRules,
  type AlertEvent,
  type AlertRulesInput,
  type CheckErrorCode,
  type CheckOutcome,
  type MonitorType,
} from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  decideAlerts,
  decodeAlertState,
  encodeAlertState,
  failurePhase,
  initialAlertState,
  type AlertState,
} from '../../src/domain/alerting/index.js';
import { applyOutcome, initialState, type MonitorState } from '../../src/domain/monitor-state.js';

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.parse('2030-03-01T12:00:00Z');

interface Step {
  outcome: CheckOutcome;
  code?: CheckErrorCode;
  maintenance?: boolean;
  cert?: number;
  /** Time passing before this check, beyond the minute between checks. */
  after?: number;
}

/**
 * A monitor checked once a minute: each step goes through the status machine (SPEC §4) and
 * then alerting, as the result writer does. Returns every event with the check index.
 */
function monitor(rules: AlertRulesInput = {}, opts: { retries?: number; type?: MonitorType } = {}) {
  const parsed = AlertRules.parse(rules);
  const retries = opts.retries ?? 1;
  let status: MonitorState = initialState;
  let alert: AlertState = initialAlertState;
  let i = 0;
  let skipped = 0;
  const events: (AlertEvent & { check: number })[] = [];
  function run(...steps: (CheckOutcome | Step)[]) {
    for (const raw of steps) {
      const step = typeof raw === 'string' ? { outcome: raw } : raw;
      skipped += step.after ?? 0;
      const at = T0 + i * MIN + skipped;
      const code = step.outcome === 'up' ? null : (step.code ?? 'connect_refused');
      const t = applyOutcome(status, step.outcome, retries, { at, code, message: 'boom' });
      status = t.next;
      const d = decideAlerts({
        rules: parsed,
        // Through its stored form, as between writes.
        state: decodeAlertState(encodeAlertState(alert)),
        facts: {
          at,
          monitor: () => ({ id: 7, name: 'Shop', type: opts.type ?? 'http', target: 'x' }),
          status: t.next.status,
          flip: t.flip,
          outcome: step.outcome,
          failures: t.next.failures,
          retries,
          errorCode: code,
          errorMessage: code && 'boom',
          firstFailureAt: t.next.firstFailure?.at ?? null,
          certExpiresAt: step.cert ?? null,
          maintenance: step.maintenance ?? false,
        },
      });
      alert = d.state;
      events.push(...d.events.map((e) => ({ ...e, check: i })));
      i += 1;
    }
    return api;
  }
  const api = {
    run,
    kinds: () => events.map((e) => e.kind),
    events,
    times: (n: number, s: CheckOutcome | Step) => run(...Array<CheckOutcome | Step>(n).fill(s)),
  };
  return api;
}

describe('down alerts', () => {
  it('go out at the DOWN itself by default, naming the failure, its phase and when it began', () => {
    const m = monitor().run('up', { outcome: 'down', code: 'dns_not_found' }, 'down');
    expect(m.kinds()).toEqual(['monitor.down']);
    expect(m.events[0]).toMatchObject({
      check: 2,
      status: 'down',
      previousStatus: 'up',
      monitor: { id: 7, name: 'Shop' },
      downChecks: 1,
      cause: {
        code: 'connect_refused',
        phase: 'connect',
        since: new Date(T0 + MIN).toISOString(),
      },
    });
  });

  it('wait for afterChecks confirmed-down checks, and a blip shorter than that sends nothing', () => {
    const blip = monitor({ afterChecks: 3 }).run('up', 'down', 'down', 'down', 'up');
    expect(blip.kinds()).toEqual([]);
    const outage = monitor({ afterChecks: 3 }).run('up', 'down', 'down', 'down', 'down', 'up');
    expect(outage.events.map((e) => [e.kind, e.check])).toEqual([
      ['monitor.down', 4],
      ['monitor.up', 5],
    ]);
  });

  it('are re-sent every renotifyEveryChecks checks while down, and not at all by default', () => {
    const m = monitor({ renotifyEveryChecks: 2 }).run('up').times(6, 'down');
    expect(m.events.map((e) => [e.kind, e.downChecks])).toEqual([
      ['monitor.down', 1],
      ['monitor.still_down', 3],
      ['monitor.still_down', 5],
    ]);
    expect(monitor().run('up').times(20, 'down').kinds()).toEqual(['monitor.down']);
  });

  it('of a push monitor whose heartbeat is missing are heartbeat.missed', () => {
    const m = monitor({}, { type: 'push', retries: 0 });
    m.run('up', { outcome: 'down', code: 'heartbeat_missed' });
    expect(m.kinds()).toEqual(['heartbeat.missed']);
  });
});

describe('recovery', () => {
  it('sends monitor.up with the outage duration after a down alert', () => {
    const m = monitor().run('up', 'down', 'down', 'down', 'up');
    expect(m.kinds()).toEqual(['monitor.down', 'monitor.up']);
    expect(m.events[1]).toMatchObject({ previousStatus: 'down', status: 'up', outageMs: 3 * MIN });
  });

  it('sends nothing when notifyRecovery is off', () => {
    expect(monitor({ notifyRecovery: false }).run('up', 'down', 'down', 'up').kinds()).toEqual([
      'monitor.down',
    ]);
  });

  it('follows a degraded alert, and degraded is silent when notifyDegraded is off', () => {
    expect(monitor().run('up', 'degraded', 'degraded', 'up').kinds()).toEqual([
      'monitor.degraded',
      'monitor.up',
    ]);
    expect(monitor({ notifyDegraded: false }).run('up', 'degraded', 'up').kinds()).toEqual([]);
  });
});

describe('flap protection', () => {
  it('sends one flapping, stays silent, then one settled with the status once flips stop', () => {
    const m = monitor({ flapThreshold: 3, flapWindowS: 600 }, { retries: 0 }).run('up');
    m.run('down', 'up', 'down', 'up', 'down', 'up', 'down', 'up');
    m.times(12, 'up');
    expect(m.kinds()).toEqual([
      'monitor.down',
      'monitor.up',
      'monitor.down',
      'monitor.flapping',
      'monitor.settled',
    ]);
    expect(m.events.at(-1)).toMatchObject({ status: 'up', check: 18 });
  });

  it('settles into down: the later recovery is announced', () => {
    const m = monitor({ flapThreshold: 2, flapWindowS: 600 }, { retries: 0 }).run('up');
    m.run('down', 'up', 'down').times(11, 'down').run('up');
    expect(m.kinds()).toEqual([
      'monitor.down',
      'monitor.up',
      'monitor.flapping',
      'monitor.settled',
      'monitor.up',
    ]);
    expect(m.events[3]).toMatchObject({ status: 'down' });
  });
});

describe('maintenance (SPEC §4)', () => {
  const inWindow = (outcome: CheckOutcome): Step => ({ outcome, maintenance: true });

  it('an outage that began and ended inside a window sends nothing', () => {
    const m = monitor().run('up', inWindow('down'), inWindow('down'), inWindow('up'), 'up');
    expect(m.kinds()).toEqual([]);
  });

  it('flips inside a window do not count towards flapping', () => {
    const m = monitor({ flapThreshold: 2 }, { retries: 0 }).run('up');
    for (let k = 0; k < 5; k++) m.run(inWindow('down'), inWindow('up'));
    m.run('down', 'up');
    expect(m.kinds()).toEqual(['monitor.down', 'monitor.up']);
  });

  it('an outage still going on when the window ends is announced then', () => {
    const m = monitor().run('up', inWindow('down'), inWindow('down'), 'down');
    expect(m.events.map((e) => [e.kind, e.check])).toEqual([['monitor.down', 3]]);
  });

  it('a recovery inside a window after a down alert is announced when the window ends', () => {
    const m = monitor().run('up', 'down', 'down', inWindow('up'), 'up');
    expect(m.events.map((e) => [e.kind, e.check])).toEqual([
      ['monitor.down', 2],
      ['monitor.up', 4],
    ]);
  });
});

describe('certificate expiry (SPEC §9)', () => {
  it('warns once per threshold, 14, 7 and 1 days before, per expiry date', () => {
    const expiry = T0 + 20 * DAY;
    const cert = (after: number) => ({ outcome: 'up' as const, cert: expiry, after });
    const m = monitor().run(cert(0), cert(6 * DAY), cert(DAY), cert(6 * DAY), cert(DAY / 2));
    m.run(cert(5 * DAY), cert(DAY / 2));
    expect(m.events.map((e) => [e.check, e.certificate?.daysLeft])).toEqual([
      [1, 13],
      [3, 6],
      [6, 0],
    ]);
    expect(m.kinds()).toEqual(Array(3).fill('certificate.expiring'));
    expect(m.events[0]!.certificate!.expiresAt).toBe(new Date(expiry).toISOString());
  });

  it('starts over for a renewed certificate, and one first seen 5 days out warns once', () => {
    const m = monitor().run({ outcome: 'up', cert: T0 + 10 * DAY });
    m.run({ outcome: 'up', cert: T0 + 5 * DAY });
    expect(m.events.map((e) => e.certificate?.daysLeft)).toEqual([10, 4]);
  });

  it('says nothing inside a maintenance window, and warns when it ends', () => {
    const m = monitor().run({ outcome: 'up', cert: T0 + 3 * DAY, maintenance: true });
    expect(m.kinds()).toEqual([]);
    m.run({ outcome: 'up', cert: T0 + 3 * DAY });
    expect(m.kinds()).toEqual(['certificate.expiring']);
  });
});

describe('state storage', () => {
  it('stores nothing for a monitor that has nothing to remember', () => {
    expect(encodeAlertState(initialAlertState)).toBeNull();
    expect(decodeAlertState(null)).toEqual(initialAlertState);
  });
});

describe('failure phases', () => {
  it.each([
    ['dns_timeout', 'dns'],
    ['connect_timeout', 'connect'],
    ['tls_cert_expired', 'tls'],
    ['timeout', 'ttfb'],
    ['http_status', 'ttfb'],
    ['keyword_missing', 'content'],
    ['json_assertion', 'content'],
    ['header_assertion', 'content'],
    ['regex_assertion', 'content'],
    ['response_too_large', 'content'],
    ['browser_js_error', 'browser'],
    ['connection_reset', 'other'],
  ] as const)('%s happens in %s', (code, phase) => {
    expect(failurePhase(code)).toBe(phase);
  });
});
