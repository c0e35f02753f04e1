import type { IncidentSeverity, IncidentState } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface PublicIncidentRecord {
  id: number;
  /** Null while the title is Pagewatch's own, which names the monitor as the team knows it. */
  title: string | null;
  state: IncidentState;
  severity: IncidentSeverity;
  startedAt: number;
  resolvedAt: number | null;
  monitorIds: number[];
  updates: { at: number; state: IncidentState; message: string }[];
}

/**
 * Incidents touching these monitors that have at least one public update, with their public
 * updates only (newest first) and only the links to these monitors.
 */
export async function publicIncidents(
  db: Kysely<DB>,
  monitorIds: readonly number[],
  filter: { open: true } | { since: number } | { id: number },
): Promise<PublicIncidentRecord[]> {
  if (monitorIds.length === 0) return [];
  let q = db
    .selectFrom('incidents')
    .select(['id', 'title', 'title_auto', 'state', 'severity', 'started_at', 'resolved_at'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('incident_monitors')
          .select('incident_id')
          .whereRef('incident_monitors.incident_id', '=', 'incidents.id')
          .where('incident_monitors.monitor_id', 'in', monitorIds),
      ),
    )
    // An incident nobody wrote a public word about stays internal.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('incident_updates')
          .select('incident_id')
          .whereRef('incident_updates.incident_id', '=', 'incidents.id')
          .where('incident_updates.public', '=', 1),
      ),
    );
  if ('open' in filter) q = q.where('resolved_at', 'is', null);
  else if ('since' in filter)
    q = q.where((eb) =>
      eb.or([eb('resolved_at', 'is', null), eb('started_at', '>=', filter.since)]),
    );
  else q = q.where('id', '=', filter.id);
  const rows = await q.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(200).execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const [links, updates] = await Promise.all([
    db
      .selectFrom('incident_monitors')
      .select(['incident_id', 'monitor_id'])
      .where('incident_id', 'in', ids)
      .where('monitor_id', 'in', monitorIds)
      .execute(),
    db
      .selectFrom('incident_updates')
      .select(['incident_id', 'at', 'state', 'message'])
      .where('incident_id', 'in', ids)
      .where('public', '=', 1)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  return rows.map((r) => ({
    id: Number(r.id),
    title: Number(r.title_auto) === 1 ? null : r.title,
    state: r.state as IncidentState,
    severity: r.severity as IncidentSeverity,
    startedAt: Number(r.started_at),
    resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
    monitorIds: links.filter((l) => l.incident_id === r.id).map((l) => Number(l.monitor_id)),
    updates: updates
      .filter((u) => Number(u.incident_id) === Number(r.id))
      .map((u) => ({ at: Number(u.at), state: u.state as IncidentState, message: u.message })),
  }));
}
