import {
  HttpMonitorInput,
  MaintenanceInput,
  TcpMonitorInput,
  type MonitorDraft,
  type MonitorInput,
} from '@pagewatch/contract';
import type { CheckRun } from '../../src/domain/check-run.js';

let n = 0;

/** A valid HTTP monitor input with defaults applied; override what the test is about. */
type HttpInput = Extract<MonitorInput, { type: 'http' }>;
type TcpInput = Extract<MonitorInput, { type: 'tcp' }>;

export function monitorInput(
  overrides: Partial<Extract<MonitorDraft, { type: 'http' }>> = {},
): HttpInput {
  n += 1;
  return HttpMonitorInput.parse({
    type: 'http',
    name: `Monitor ${n}`,
    url: `http://127.0.0.1:9/${n}`,
    ...overrides,
  });
}

export function tcpMonitorInput(
  overrides: Partial<Extract<MonitorDraft, { type: 'tcp' }>> = {},
): TcpInput {
  n += 1;
  return TcpMonitorInput.parse({
    type: 'tcp',
    name: `TCP monitor ${n}`,
    host: '127.0.0.1',
    port: 9,
    ...overrides,
  });
}

/** A valid recurring maintenance window over all monitors; override what the test is about. */
export function maintenanceInput(overrides: Partial<MaintenanceInput> = {}): MaintenanceInput {
  n += 1;
  return MaintenanceInput.parse({
    title: `Window ${n}`,
    timezone: 'Europe/Berlin',
    scope: { kind: 'all' },
    schedule: {
      kind: 'rrule',
      expression: 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30',
      durationMinutes: 60,
      from: '2030-01-01T00:00',
    },
    ...overrides,
  });
}

/** One window, once, in UTC, over one monitor: as an editor schedules a planned upgrade. */
export function onceMaintenanceInput(
  monitorId: number,
  span: { start: number; end: number },
  title = 'Database upgrade',
): MaintenanceInput {
  return maintenanceInput({
    title,
    timezone: 'UTC',
    scope: { kind: 'monitors', monitorIds: [monitorId] },
    schedule: {
      kind: 'once',
      startsAt: new Date(span.start).toISOString(),
      endsAt: new Date(span.end).toISOString(),
    },
  });
}

export function checkRun(overrides: Partial<CheckRun> = {}): CheckRun {
  return {
    outcome: 'up',
    latencyMs: 12.5,
    phases: { dns: null, connect: 0.5, tls: null, ttfb: 10, download: 2 },
    httpStatus: 200,
    errorCode: null,
    errorMessage: null,
    responseSize: 42,
    certExpiresAt: null,
    ...overrides,
  };
}

export function downRun(overrides: Partial<CheckRun> = {}): CheckRun {
  return checkRun({
    outcome: 'down',
    latencyMs: null,
    phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
    httpStatus: null,
    errorCode: 'connect_refused',
    errorMessage: 'Connection refused',
    responseSize: null,
    ...overrides,
  });
}
