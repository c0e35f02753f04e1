import {
  formatDuration,
  type CheckErrorCode,
  type Incident,
  type IncidentState,
  type MonitorStatus,
  type ServerEvent,
} from '@pagewatch/contract';

/** The first failing check of a streak: an outage's cause and start. */
export interface FailureCause {
  at: number;
  code: CheckErrorCode | null;
  message: string | null;
}

/** An incident's lifecycle fields, as the rules below see them. */
export interface IncidentLifecycle {
  state: IncidentState;
  resolvedAt: number | null;
}

/**
 * SPEC §4 states. Any state may follow any other: people go back to investigating when a fix
 * didn't hold, and an update in a non-resolved state reopens a resolved incident. Resolving
 * stamps the time once; later updates on a resolved incident (a postmortem note) keep it.
 */
export function applyStateChange(
  current: IncidentLifecycle,
  next: IncidentState,
  at: number,
): IncidentLifecycle {
  if (next !== 'resolved') return { state: next, resolvedAt: null };
  return { state: 'resolved', resolvedAt: current.resolvedAt ?? at };
}

/** What a result write means for the monitor's automatic incident. */
export type AutoIncidentAction = 'open' | 'resolve' | null;

export interface AutoIncidentInput {
  status: MonitorStatus;
  flip: { from: MonitorStatus; to: MonitorStatus } | null;
  /** The monitor is inside an active maintenance window: outages are expected. */
  maintenance: boolean;
}

/**
 * A down write outside maintenance may need an incident (the repository opens one only when
 * the outage has none: a flip, a restart while down, a maintenance window that ended while
 * down). A flip to up or degraded resolves the open one. Anything else leaves incidents alone,
 * so the common write (still up) costs no query.
 */
export function autoIncidentAction(w: AutoIncidentInput): AutoIncidentAction {
  if (w.status === 'down') return w.maintenance ? null : 'open';
  if (w.flip && (w.flip.to === 'up' || w.flip.to === 'degraded')) return 'resolve';
  return null;
}

export const autoTitle = (monitorName: string): string => `${monitorName} is down`;

/**
 * Pagewatch's own title as the public reads it: with the names a status page gives the
 * monitors, never the team's own monitor names.
 */
export const publicAutoTitle = (shownNames: readonly string[]): string =>
  autoTitle(shownNames.join(', ') || 'A service');

/** The name a status page shows for a monitor: its display name, else the monitor's name. */
export const shownName = (c: { displayName: string; name: string }): string =>
  c.displayName.trim() || c.name;

export function openedMessage(cause: FailureCause | null): string {
  const why = cause?.message ?? cause?.code ?? null;
  return why
    ? `Opened automatically: the monitor is down. First failure: ${why}`
    : 'Opened automatically: the monitor is down.';
}

export const resolvedMessage = (durationMs: number): string =>
  `Resolved automatically: back up after ${formatDuration(durationMs)}`;

export { formatDuration };

export type IncidentChange = Extract<ServerEvent, { kind: 'incident' }>['change'];

/** The live event for an incident change: everything a subscriber needs without a read back. */
export function incidentEvent(
  incident: Incident,
  change: IncidentChange,
  at: number,
): Extract<ServerEvent, { kind: 'incident' }> {
  return {
    kind: 'incident',
    change,
    incidentId: incident.id,
    monitorId: incident.monitorId,
    monitorIds: incident.monitors.map((m) => m.id),
    title: incident.title,
    state: incident.state,
    severity: incident.severity,
    automatic: incident.automatic,
    at: new Date(at).toISOString(),
  };
}
