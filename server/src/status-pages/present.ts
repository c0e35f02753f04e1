import { publicAutoTitle, shownName } from '../domain/incidents.js';
import { uptimePercent } from '../domain/percentiles.js';
import type { Grid } from './bucket-history.js';
import { CHART_HOURS, gridDay, gridHour, type GridDay } from './histories.js';
import type {
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

export const LOOKING_INTO_IT = 'We’re looking into it.';

/** A component's status: paused and maintenance win over what the checks say. */
export function componentStatus(
  c: Pick<PublicComponentRecord, 'paused' | 'status'>,
  inMaintenance: boolean,
): ComponentStatus {
  if (c.paused) return 'paused';
  if (inMaintenance) return 'maintenance';
  return c.status === 'paused' || c.status === 'maintenance' ? 'pending' : c.status;
}

/**
 * The page's banner. Paused and pending components don't count; more than half of the
 * counted components down is a major outage, fewer a partial one. A component whose status is
 * unknown keeps the page from saying "operational".
 */
export function overallStatus(statuses: readonly ComponentStatus[]): OverallStatus {
  const counted = statuses.filter(
    (s) => s === 'up' || s === 'degraded' || s === 'down' || s === 'regional',
  );
  const down = counted.filter((s) => s === 'down').length;
  if (down > 0) return down * 2 > counted.length ? 'major_outage' : 'partial_outage';
  // Failing from some places is an outage for the people there (ADR 58).
  if (counted.includes('regional')) return 'partial_outage';
  if (counted.includes('degraded')) return 'degraded';
  // Nobody could look: never "operational" (ADR 66).
  if (statuses.includes('unknown')) return 'unknown';
  if (statuses.includes('maintenance')) return 'maintenance';
  return counted.length > 0 ? 'operational' : 'no_data';
}

/**
 * A day is down when under 99 % delivered, degraded for any slow or failed check; a day whose
 * every failure fell inside a maintenance window (`excused`) shows maintenance instead.
 */
export function dayState(d: GridDay | undefined, maintenance: boolean, excused = false): DayState {
  if (!d || d.checks === 0) return maintenance ? 'maintenance' : 'none';
  if (excused && maintenance && d.down > 0) return d.degraded > 0 ? 'degraded' : 'maintenance';
  const delivered = (d.up + d.degraded) / d.checks;
  if (d.down > 0 && delivered < 0.99) return 'down';
  if (d.down > 0 || d.degraded > 0) return 'degraded';
  return 'up';
}

/** What the bars of one render share: the 90 dates and, per monitor, what each day holds. */
export interface BarInput {
  /** YYYY-MM-DD of each bar, oldest first. */
  dates: readonly string[];
  grids: ReadonlyMap<number, Grid>;
  /** Monitor → day index → outages that day. */
  outages: ReadonlyMap<number, ReadonlyMap<number, number>>;
  /** Monitor → indexes of the days a maintenance window touched. */
  maintenance: ReadonlyMap<number, ReadonlySet<number>>;
  /** Monitor → indexes of the days whose failures all fell inside maintenance. */
  excused?: ReadonlyMap<number, ReadonlySet<number>>;
}

/** The last 90 UTC days of one monitor, oldest first, and the uptime over them. */
export function bars(
  monitorId: number,
  input: BarInput,
): { days: PublicDay[]; uptime: number | null } {
  const grid = input.grids.get(monitorId);
  const outages = input.outages.get(monitorId);
  const maintenance = input.maintenance.get(monitorId);
  const excused = input.excused?.get(monitorId);
  const days: PublicDay[] = [];
  let checks = 0;
  let delivered = 0;
  for (let i = 0; i < input.dates.length; i++) {
    const d = grid ? gridDay(grid, i) : undefined;
    checks += d?.checks ?? 0;
    delivered += (d?.up ?? 0) + (d?.degraded ?? 0);
    days.push({
      date: input.dates[i] ?? '',
      state: dayState(d, maintenance?.has(i) ?? false, excused?.has(i) ?? false),
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

/** One monitor's hourly means over the chart's 24 hours. */
export function responseTimes(grid: Grid | undefined): PublicResponseTimes {
  let sum = 0;
  let count = 0;
  const hours: (number | null)[] = [];
  for (let i = 0; i < CHART_HOURS; i++) {
    const h = grid ? gridHour(grid, i) : { sumUs: 0, count: 0 };
    sum += h.sumUs;
    count += h.count;
    hours.push(h.count > 0 ? Math.round(h.sumUs / h.count / 1000) : null);
  }
  const timed = hours.filter((h): h is number => h !== null);
  return {
    hours,
    avgMs: count > 0 ? Math.round(sum / count / 1000) : null,
    maxMs: timed.length > 0 ? Math.max(...timed) : null,
  };
}

export function presentComponent(
  c: PublicComponentRecord,
  status: ComponentStatus,
  bar: { days: PublicDay[]; uptime: number | null },
  show: { uptimeBars: boolean; currentLatency: boolean },
  chart?: PublicResponseTimes,
  announced = true,
  extra: Pick<PublicComponent, 'months' | 'locations' | 'failing'> = {},
): PublicComponent {
  return {
    name: shownName(c),
    description: c.description,
    status,
    // Down with no public word yet (Pagewatch opened the incident itself): a neutral line
    // instead of silence or the team's internal title, until an editor publishes one.
    ...(status === 'down' && !announced ? { notice: LOOKING_INTO_IT } : {}),
    uptime: bar.uptime,
    ...(show.currentLatency
      ? { latencyMs: c.lastLatencyUs === null ? null : Math.round(c.lastLatencyUs / 1000) }
      : {}),
    days: show.uptimeBars ? bar.days : null,
    ...(chart ? { responseTimes: chart } : {}),
    ...extra,
  };
}
