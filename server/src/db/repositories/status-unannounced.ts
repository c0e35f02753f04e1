import type { UnannouncedIncidents } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/**
 * Open incidents without a public update whose monitors a published page shows, leaving out
 * monitors another open incident already speaks of publicly: two reads, grouped here (few
 * rows: open incidents times the pages showing their monitors).
 */
export async function unannouncedIncidents(db: Kysely<DB>): Promise<UnannouncedIncidents['items']> {
  const rows = await db
    .selectFrom('incidents as i')
    .innerJoin('incident_monitors as im', 'im.incident_id', 'i.id')
    .innerJoin('status_page_components as c', 'c.monitor_id', 'im.monitor_id')
    .innerJoin('status_pages as p', 'p.id', 'c.page_id')
    .innerJoin('monitors as m', 'm.id', 'im.monitor_id')
    .select([
      'i.id as incident_id',
      'i.title as incident_title',
      'i.started_at',
      'm.id as monitor_id',
      'm.name as monitor_name',
      'p.id as page_id',
      'p.title as page_title',
      'p.slug as page_slug',
    ])
    .where('i.resolved_at', 'is', null)
    .where('p.published', '=', 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('incident_updates as u')
            .select('u.incident_id')
            .whereRef('u.incident_id', '=', 'i.id')
            .where('u.public', '=', 1),
        ),
      ),
    )
    .orderBy('i.started_at', 'desc')
    .orderBy('i.id', 'desc')
    .orderBy('p.title')
    .orderBy('m.name')
    .limit(500)
    .execute();
  if (rows.length === 0) return [];
  const spoken = await db
    .selectFrom('incident_monitors as im')
    .innerJoin('incidents as i', 'i.id', 'im.incident_id')
    .select('im.monitor_id')
    .distinct()
    .where('i.resolved_at', 'is', null)
    .where('im.monitor_id', 'in', [...new Set(rows.map((r) => Number(r.monitor_id)))])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('incident_updates as u')
          .select('u.incident_id')
          .whereRef('u.incident_id', '=', 'i.id')
          .where('u.public', '=', 1),
      ),
    )
    .execute();
  const announced = new Set(spoken.map((s) => Number(s.monitor_id)));
  const byIncident = new Map<number, UnannouncedIncidents['items'][number]>();
  for (const r of rows) {
    if (announced.has(Number(r.monitor_id))) continue;
    const id = Number(r.incident_id);
    let item = byIncident.get(id);
    if (!item) {
      item = {
        incidentId: id,
        title: r.incident_title,
        startedAt: new Date(Number(r.started_at)).toISOString(),
        monitors: [],
        pages: [],
      };
      byIncident.set(id, item);
    }
    const monitorId = Number(r.monitor_id);
    if (!item.monitors.some((m) => m.id === monitorId))
      item.monitors.push({ id: monitorId, name: r.monitor_name });
    const pageId = Number(r.page_id);
    if (!item.pages.some((p) => p.id === pageId))
      item.pages.push({ id: pageId, title: r.page_title, slug: r.page_slug });
  }
  return [...byIncident.values()];
}
