import type { MaintenanceRecord } from '../domain/maintenance/window.js';
import { occurrences } from '../domain/maintenance/occurrences.js';
import type { PublicPageRecord, PublicSectionRecord } from '../db/repositories/status-public.js';
import type { ServiceDeps } from '../services/deps.js';
import { maintenanceNow } from '../services/maintenance/now.js';
import { renderMarkdown } from './markdown.js';
import {
  BAR_DAYS,
  DAY_MS,
  bars,
  componentStatus,
  dayOf,
  displayName,
  indexDays,
  overallStatus,
  presentComponent,
  presentIncident,
} from './present.js';
import type { PageLinks, PublicMaintenance, PublicStatusPage } from './view-model.js';

export type ReadDeps = Pick<ServiceDeps, 'repos' | 'clock' | 'maintenance'>;

/** A page and its layout: stored (published or saved) or a draft the editor previews. */
export interface PageSource {
  page: PublicPageRecord;
  sections: PublicSectionRecord[];
}

const PAST_DAYS = 14;
const AHEAD_MS = 7 * DAY_MS;

const inScope = (w: MaintenanceRecord, ids: ReadonlySet<number>) =>
  w.scope.kind === 'all' ? [...ids] : w.scope.monitorIds.filter((id) => ids.has(id));

interface MaintenanceView {
  upcoming: PublicMaintenance[];
  /** `monitorId:day` of every day a window touched, for the bars. */
  days: Set<string>;
}

function maintenanceView(
  windows: readonly MaintenanceRecord[],
  ids: ReadonlySet<number>,
  names: ReadonlyMap<number, string>,
  now: number,
  from: number,
): MaintenanceView {
  const upcoming: PublicMaintenance[] = [];
  const days = new Set<string>();
  for (const w of windows) {
    const monitors = inScope(w, ids);
    if (w.cancelledAt !== null || monitors.length === 0) continue;
    for (const o of occurrences(w, from, now + AHEAD_MS)) {
      for (let d = dayOf(o.start); d < Math.min(o.end, now); d += DAY_MS)
        for (const id of monitors) days.add(`${id}:${d}`);
      if (o.end <= now) continue;
      upcoming.push({
        title: w.title,
        start: new Date(o.start).toISOString(),
        end: new Date(o.end).toISOString(),
        active: o.start <= now,
        components: monitors.flatMap((id) => names.get(id) ?? []),
      });
    }
  }
  upcoming.sort((a, b) => a.start.localeCompare(b.start));
  return { upcoming: upcoming.slice(0, 20), days };
}

/**
 * Builds the public view of a page in a fixed number of batched reads (layout, days, outages,
 * incidents, maintenance), however many components it has.
 */
export async function loadView(
  deps: ReadDeps,
  source: PageSource,
  links: PageLinks,
  pastDays = PAST_DAYS,
): Promise<PublicStatusPage> {
  const { page, sections } = source;
  const now = deps.clock.now();
  const today = dayOf(now);
  const from = today - (BAR_DAYS - 1) * DAY_MS;
  const components = sections.flatMap((s) => s.components);
  const ids = components.map((c) => c.monitorId);
  const names = new Map(components.map((c) => [c.monitorId, displayName(c)]));
  const repo = deps.repos.statusPublic;
  const [counts, outages, active, past, windows, inMaintenance] = await Promise.all([
    repo.days(ids, from, today),
    repo.outages(ids, from),
    repo.activeIncidents(ids),
    repo.incidentsSince(ids, now - pastDays * DAY_MS),
    deps.repos.maintenance.list(),
    maintenanceNow(deps),
  ]);
  const maint = maintenanceView(windows, new Set(ids), names, now, from);
  const barInput = {
    today,
    counts: indexDays(counts),
    outages: new Map(outages.map((o) => [`${o.monitorId}:${o.day}`, o.down])),
    maintenanceDays: maint.days,
  };
  const viewSections = sections.map((s) => ({
    title: s.title,
    components: s.components.map((c) =>
      presentComponent(
        c,
        componentStatus(c, inMaintenance(c.monitorId)),
        bars(c.monitorId, barInput),
        page.show,
      ),
    ),
  }));
  const statuses = viewSections.flatMap((s) => s.components.map((c) => c.status));
  return {
    slug: page.slug,
    title: page.title,
    descriptionHtml: renderMarkdown(page.description),
    footer: page.footer,
    logoUrl: page.logoHash ? `${links.base}/logo?v=${page.logoHash}` : null,
    theme: { mode: page.theme.mode, accent: page.theme.accent },
    status: overallStatus(statuses),
    generatedAt: new Date(now).toISOString(),
    sections: viewSections,
    activeIncidents: active.map((i) => presentIncident(i, names)),
    maintenance: maint.upcoming,
    pastIncidents: past.filter((i) => i.resolvedAt !== null).map((i) => presentIncident(i, names)),
    // The subscribe form lives on the app's host only (also from a custom domain).
    subscribeUrl: page.subscribable ? `/status/${page.slug}/subscribe` : null,
  };
}

/** One incident of the page, only if it touches the page's monitors and has public updates. */
export async function loadIncident(deps: ReadDeps, source: PageSource, incidentId: number) {
  const components = source.sections.flatMap((s) => s.components);
  const names = new Map(components.map((c) => [c.monitorId, displayName(c)]));
  const found = await deps.repos.statusPublic.incident([...names.keys()], incidentId);
  return found ? presentIncident(found, names) : null;
}
