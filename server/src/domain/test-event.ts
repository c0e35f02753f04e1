import type { AlertEvent } from '@pagewatch/contract';

/** The event "send test" delivers: no monitor, so every channel renders its plain form. */
export function testEvent(at: number): AlertEvent {
  return {
    kind: 'test',
    at: new Date(at).toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
  };
}
