import type { AlertEvent } from '@pagewatch/contract';

/**
 * The key incident tools group an alert under (PagerDuty dedup_key, Opsgenie alias): one open
 * alert per monitor, per incident, or per monitor's certificate, so a recovery closes it.
 */
export function alertKey(event: AlertEvent): string {
  if (event.kind.startsWith('incident.') && event.incident) {
    return `pagewatch-incident-${event.incident.id}`;
  }
  if (event.kind === 'certificate.expiring' && event.monitor) {
    return `pagewatch-cert-${event.monitor.id}`;
  }
  // A burn-rate alert and its recovery share the SLO's key (ADR 53).
  if (event.slo) return `pagewatch-slo-${event.slo.id}`;
  // A grouped alert and its grouped recovery share the group's key (ADR 42).
  if (event.group && event.group.members.length > 1) return `pagewatch-group-${event.group.key}`;
  if (event.monitor) return `pagewatch-monitor-${event.monitor.id}`;
  return 'pagewatch-test';
}

/** Events that end what an earlier alert under the same key started. */
export function isRecovery(event: AlertEvent): boolean {
  return (
    event.kind === 'monitor.up' ||
    (event.kind === 'monitor.settled' && event.status === 'up') ||
    event.kind === 'incident.resolved' ||
    event.kind === 'slo.recovered'
  );
}
