import type { ReportSubjectKind } from '@pagewatch/contract';
import { shownName } from '../../domain/incidents.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export interface ReportSubject {
  kind: ReportSubjectKind;
  id: string;
  name: string;
  /** The monitors reported on, with the names the report shows. */
  monitors: { id: number; name: string }[];
  /** A status page's own time zone, the default for its reports. */
  timeZone?: string;
}

const numericId = (id: string): number => {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) {
    throw validationFailed([
      { path: 'id', message: 'Choose what the report is about', code: 'invalid_subject' },
    ]);
  }
  return n;
};

/** Who a report is about: one monitor (a group monitor too), every monitor of a tag, or a page. */
export async function resolveSubject(
  deps: ServiceDeps,
  kind: ReportSubjectKind,
  id: string,
): Promise<ReportSubject> {
  if (kind === 'monitor') {
    const m = await deps.repos.monitors.findById(numericId(id));
    if (!m) throw notFound('Monitor');
    return { kind, id, name: m.name, monitors: [{ id: m.id, name: m.name }] };
  }
  if (kind === 'tag') {
    const all = await deps.repos.monitors.list();
    const tagged = all.filter((m) => m.tags.includes(id));
    if (tagged.length === 0) throw notFound('Tag');
    const monitors = tagged
      .map((m) => ({ id: m.id, name: m.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { kind, id, name: `Tag ${id}`, monitors };
  }
  const pageId = numericId(id);
  const page = await deps.repos.statusPublic.byId(pageId);
  if (!page) throw notFound('Status page');
  const sections = await deps.repos.statusPublic.layout(pageId);
  const seen = new Set<number>();
  const monitors = sections
    .flatMap((s) => s.components)
    .filter((c) => !seen.has(c.monitorId) && seen.add(c.monitorId))
    .map((c) => ({ id: c.monitorId, name: shownName(c) }));
  return { kind, id, name: page.title, monitors, timeZone: page.timeZone };
}
