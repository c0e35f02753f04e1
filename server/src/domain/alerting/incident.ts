import type { AlertEvent, Incident } from '@pagewatch/contract';

export type IncidentAlertKind = 'incident.created' | 'incident.updated' | 'incident.resolved';

/** The outbox event for a change people made to an incident (automatic ones have the monitor's). */
export function incidentAlert(
  incident: Incident,
  kind: IncidentAlertKind,
  message: string | null,
  at: number,
): AlertEvent {
  return {
    kind,
    at: new Date(at).toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: {
      id: incident.id,
      title: incident.title,
      state: incident.state,
      severity: incident.severity,
      message,
    },
  };
}
