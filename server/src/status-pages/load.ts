import type { MaintenanceRecord } from '../domain/maintenance/window.js';
import { occurrences } from '../domain/maintenance/occurrences.js';
import type { PublicPageRecord, PublicSectionRecord } from '../db/repositories/status-public.js';
import { shownName } from '../domain/incidents.js';
import type { ServiceDeps } from '../services/deps.js';
import { availabilityOver } from '../services/availability/over.js';
import { maintenanceNow } from '../services/maintenance/now.js';
import { barDates, DAY_MS, dayOf, hourOf, type PageHistories } from './histories.js';
import { presentLocations } from './locations.js';
import { lastMonths, presentMonths } from './months.js';
import { renderMarkdown } from './markdown.js';
import {
  bars,
  responseTimes,
  componentStatus,
  overallStatus,
  presentComponent,
  presentIncident,
} from './present.js';
import type { PageLinks, PublicMaintenance, PublicStatusPage } from './view-model.js';

export type ReadDeps = Pick<ServiceDeps, 'repos' | 'clock' | 'maintenance'>;

/** What a view is built from besides the page: its reads, and the rollups kept in memory. */
export interface ViewDeps extends ReadDeps {
  histories: PageHistories;
}

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
  /** Monitor → indexes of the bar days a window touched. */
  days: Map<number, Set<number>>;
  /** Monitor → its windows' occurrences since `recent` (start, end ms). */
  spans: Map<number, Set<[number, number]>>;
}

/** How far back a day can be excused for failures inside maintenance: today and yesterday. */
const EXCUSE_DAYS = 2;

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function maintenanceView(
  windows: readonly MaintenanceRecord[],
  ids: ReadonlySet<number>,
  names: ReadonlyMap<number, string>,
  now: number,
  from: number,
): MaintenanceView {
  const upcoming: PublicMaintenance[] = [];
  const days = new Map<number, Set<number>>();
  const spans = new Map<number, Set<[number, number]>>();
  const recent = dayOf(now) - (EXCUSE_DAYS - 1) * DAY_MS;
  for (const w of windows) {
    const monitors = inScope(w, ids);
    if (w.cancelledAt !== null || monitors.length === 0) continue;
    for (const o of occurrences(w, from, now + AHEAD_MS)) {
      for (let d = Math.max(dayOf(o.start), from); d < Math.min(o.end, now); d += DAY_MS)
        for (const id of monitors) addTo(days, id, (d - from) / DAY_MS);
      if (o.end > recent && o.start <= now)
        for (const id of monitors) addTo(spans, id, [o.start, o.end] as [number, number]);
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
  return { upcoming: upcoming.slice(0, 20), days, spans };
}

const MINUTE_MS = 60_000;

/**
 * Monitor → the recent bar days (today, yesterday) that a window touched and whose every failed
 * minute overlaps one of its windows: the bar shows maintenance, not red, for them.
 */
async function excusedDays(
  deps: ViewDeps,
  maint: MaintenanceView,
  now: number,
  from: number,
): Promise<Map<number, Set<number>>> {
  const excused = new Map<number, Set<number>>();
  const ids = [...maint.spans.keys()];
  if (ids.length === 0) return excused;
  const recent = dayOf(now) - (EXCUSE_DAYS - 1) * DAY_MS;
  const failed = await deps.repos.statusPublic.downMinutes(ids, Math.max(recent, from));
  const outside = new Map<number, Set<number>>();
  for (const f of failed) {
    const inside = [...(maint.spans.get(f.monitorId) ?? [])].some(
      ([start, end]) => f.minute < end && f.minute + MINUTE_MS > start,
    );
    if (!inside) addTo(outside, f.monitorId, (dayOf(f.minute) - from) / DAY_MS);
  }
  for (const id of ids) {
    for (const day of maint.days.get(id) ?? []) {
      if (from + day * DAY_MS >= recent && !outside.get(id)?.has(day)) addTo(excused, id, day);
    }
  }
  return excused;
}

/**
 * Builds the public view of a page in a fixed number of batched reads (layout, days, outages,
 * incidents, maintenance), however many components it has.
 */
export async function loadView(
  deps: ViewDeps,
  source: PageSource,
  links: PageLinks,
  pastDays = PAST_DAYS,
): Promise<PublicStatusPage> {
  const { page, sections } = source;
  const now = deps.clock.now();
  const today = dayOf(now);
  const from = deps.histories.days.first(today);
  const components = sections.flatMap((s) => s.components);
  const ids = components.map((c) => c.monitorId);
  const names = new Map(components.map((c) => [c.monitorId, shownName(c)]));
  const repo = deps.repos.statusPublic;
  const months = page.show.monthlyUptime ? lastMonths(now, page.timeZone) : [];
  const located = components.filter((c) => c.showLocations).map((c) => c.monitorId);
  const [grids, outages, active, past, windows, inMaintenance, hours, uptime, locations] =
    await Promise.all([
      deps.histories.days.grids(ids, today),
      repo.outages(ids, from),
      repo.activeIncidents(ids),
      repo.incidentsSince(ids, now - pastDays * DAY_MS),
      deps.repos.maintenance.list(),
      maintenanceNow(deps),
      page.show.latencyChart ? deps.histories.hours.grids(ids, hourOf(now)) : null,
      // The uptime beside the bars is the one computation's over the bars' days (ADR 54), and so
      // are the monthly figures: one read of every component's bars' days and months (ADR 66).
      availabilityOver(deps, ids, [{ start: from, end: today + DAY_MS }, ...months]),
      located.length > 0 ? repo.locationStates(located) : null,
    ]);
  const maint = maintenanceView(windows, new Set(ids), names, now, from);
  const excused = await excusedDays(deps, maint, now, from);
  // Components an open incident speaks of publicly; the others get a neutral line when down.
  const announced = new Set(active.flatMap((i) => i.monitorIds));
  const outagesByDay = new Map<number, Map<number, number>>();
  for (const o of outages) {
    const byDay = outagesByDay.get(o.monitorId) ?? new Map<number, number>();
    byDay.set((o.day - from) / DAY_MS, o.down);
    outagesByDay.set(o.monitorId, byDay);
  }
  const barInput = {
    dates: barDates(today),
    grids,
    outages: outagesByDay,
    maintenance: maint.days,
    excused,
  };
  const viewSections = sections.map((s) => ({
    title: s.title,
    components: s.components.map((c) => {
      const status = componentStatus(c, inMaintenance(c.monitorId));
      const figures = uptime.get(c.monitorId)?.periods ?? [];
      return presentComponent(
        c,
        status,
        { ...bars(c.monitorId, barInput), uptime: figures[0]?.uptime ?? null },
        page.show,
        hours ? responseTimes(hours.get(c.monitorId)) : undefined,
        announced.has(c.monitorId),
        {
          ...(page.show.monthlyUptime ? { months: presentMonths(months, figures.slice(1)) } : {}),
          ...(presentLocations(locations?.get(c.monitorId), status, now) ?? {}),
        },
      );
    }),
  }));
  const statuses = viewSections.flatMap((s) => s.components.map((c) => c.status));
  return {
    slug: page.slug,
    title: page.title,
    descriptionHtml: renderMarkdown(page.description),
    footer: page.footer,
    logoUrl: page.logoHash ? `${links.base}/logo?v=${page.logoHash}` : null,
    theme: { mode: page.theme.mode, accent: page.theme.accent },
    timeZone: page.timeZone,
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
  const names = new Map(components.map((c) => [c.monitorId, shownName(c)]));
  const found = await deps.repos.statusPublic.incident([...names.keys()], incidentId);
  return found ? presentIncident(found, names) : null;
}
