import { publicAutoTitle, shownName } from '../domain/incidents.js';
import { uptimePercent } from '../domain/percentiles.js';
import { BAR_DAYS, DAY_MS, gridDay, type DayGrid, type GridDay } from './day-history.js';
import type {
  HourLatency,
  PublicComponentRecord,
  PublicIncidentRecord,
} from '../db/repositories/status-public.js';
import type {
  ComponentStatus,
  DayState,
  OverallStatus,
  PublicComponent,
  PublicDay,
  PublicIncident,
  PublicResponseTimes,
} from './view-model.js';

/** A component's status: paused and maintenance win over what the checks say. */
export function componentStatus(c: PublicComponentRecord, inMaintenance: boolean): ComponentStatus {
  if (c.paused) return 'paused';
  if (inMaintenance) return 'maintenance';
  return c.status === 'paused' || c.status === 'maintenance' ? 'pending' : c.status;
}

/**
 * The page's banner. Paused and pending components don't count; more than half of the
 * counted components down is a major outage, fewer a partial one.
 */
export function overallStatus(statuses: readonly ComponentStatus[]): OverallStatus {
  const counted = statuses.filter((s) => s === 'up' || s === 'degraded' || s === 'down');
  const down = counted.filter((s) => s === 'down').length;
  if (down > 0) return down * 2 > counted.length ? 'major_outage' : 'partial_outage';
  if (counted.includes('degraded')) return 'degraded';
  if (statuses.includes('maintenance')) return 'maintenance';
  return counted.length > 0 ? 'operational' : 'no_data';
}

/** A day is down when under 99 % delivered, degraded for any slow or failed check. */
export function dayState(d: GridDay | undefined, maintenance: boolean): DayState {
  if (!d || d.checks === 0) return maintenance ? 'maintenance' : 'none';
  const delivered = (d.up + d.degraded) / d.checks;
  if (d.down > 0 && delivered < 0.99) return 'down';
  if (d.down > 0 || d.degraded > 0) return 'degraded';
  return 'up';
}

/** What the bars of one render share: the 90 dates and, per monitor, what each day holds. */
export interface BarInput {
  /** YYYY-MM-DD of each bar, oldest first. */
  dates: readonly string[];
  grids: ReadonlyMap<number, DayGrid>;
  /** Monitor → day index → outages that day. */
  outages: ReadonlyMap<number, ReadonlyMap<number, number>>;
  /** Monitor → indexes of the days a maintenance window touched. */
  maintenance: ReadonlyMap<number, ReadonlySet<number>>;
}

/** The 90 dates (YYYY-MM-DD) that end with `today`, oldest first. */
export function barDates(today: number): string[] {
  return Array.from({ length: BAR_DAYS }, (_, i) =>
    new Date(today - (BAR_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The last 90 UTC days of one monitor, oldest first, and the uptime over them. */
export function bars(
  monitorId: number,
  input: BarInput,
): { days: PublicDay[]; uptime: number | null } {
  const grid = input.grids.get(monitorId);
  const outages = input.outages.get(monitorId);
  const maintenance = input.maintenance.get(monitorId);
  const days: PublicDay[] = [];
  let checks = 0;
  let delivered = 0;
  for (let i = 0; i < input.dates.length; i++) {
    const d = grid ? gridDay(grid, i) : undefined;
    checks += d?.checks ?? 0;
    delivered += (d?.up ?? 0) + (d?.degraded ?? 0);
    days.push({
      date: input.dates[i] ?? '',
      state: dayState(d, maintenance?.has(i) ?? false),
      uptime: d ? uptimePercent(d.up, d.degraded, d.checks) : null,
      outages: outages?.get(i) ?? 0,
    });
  }
  return { days, uptime: uptimePercent(delivered, 0, checks) };
}

export function presentIncident(
  r: PublicIncidentRecord,
  names: ReadonlyMap<number, string>,
): PublicIncident {
  const components = r.monitorIds.flatMap((id) => names.get(id) ?? []);
  return {
    id: r.id,
    // Pagewatch's own title names the monitor; the page says it with the names it shows.
    title: r.title ?? publicAutoTitle(components),
    state: r.state,
    severity: r.severity,
    startedAt: new Date(r.startedAt).toISOString(),
    resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt).toISOString(),
    components,
    updates: r.updates.map((u) => ({
      at: new Date(u.at).toISOString(),
      state: u.state,
      message: u.message,
    })),
  };
}

export const HOUR_MS = 3_600_000;
/** Hours the response time chart covers, the current one last. */
export const CHART_HOURS = 24;

/** One monitor's hourly means over the chart's 24 hours, from its hour rollups. */
export function responseTimes(
  rows: readonly HourLatency[],
  firstHour: number,
): PublicResponseTimes {
  const sums = new Array<number>(CHART_HOURS).fill(0);
  const counts = new Array<number>(CHART_HOURS).fill(0);
  for (const r of rows) {
    const i = Math.round((r.hour - firstHour) / HOUR_MS);
    if (i < 0 || i >= CHART_HOURS) continue;
    sums[i] = (sums[i] ?? 0) + r.sumUs;
    counts[i] = (counts[i] ?? 0) + r.count;
  }
  const hours = sums.map((sum, i) => {
    const n = counts[i] ?? 0;
    return n > 0 ? Math.round(sum / n / 1000) : null;
  });
  const count = counts.reduce((a, b) => a + b, 0);
  const timed = hours.filter((h): h is number => h !== null);
  return {
    hours,
    avgMs: count > 0 ? Math.round(sums.reduce((a, b) => a + b, 0) / count / 1000) : null,
    maxMs: timed.length > 0 ? Math.max(...timed) : null,
  };
}

export function presentComponent(
  c: PublicComponentRecord,
  status: ComponentStatus,
  bar: { days: PublicDay[]; uptime: number | null },
  show: { uptimeBars: boolean; currentLatency: boolean },
  chart?: PublicResponseTimes,
): PublicComponent {
  return {
    name: shownName(c),
    description: c.description,
    status,
    uptime: bar.uptime,
    ...(show.currentLatency
      ? { latencyMs: c.lastLatencyUs === null ? null : Math.round(c.lastLatencyUs / 1000) }
      : {}),
    days: show.uptimeBars ? bar.days : null,
    ...(chart ? { responseTimes: chart } : {}),
  };
}
