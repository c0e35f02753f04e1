import { uptimePercent } from '../domain/percentiles.js';
import type {
  DayCounts,
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
} from './view-model.js';

export const DAY_MS = 86_400_000;
export const BAR_DAYS = 90;

export const dayOf = (at: number): number => Math.floor(at / DAY_MS) * DAY_MS;

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
export function dayState(d: DayCounts | undefined, maintenance: boolean): DayState {
  if (!d || d.checks === 0) return maintenance ? 'maintenance' : 'none';
  const delivered = (d.up + d.degraded) / d.checks;
  if (d.down > 0 && delivered < 0.99) return 'down';
  if (d.down > 0 || d.degraded > 0) return 'degraded';
  return 'up';
}

export interface BarInput {
  today: number;
  counts: Map<string, DayCounts>;
  outages: Map<string, number>;
  maintenanceDays: Set<string>;
}

const key = (monitorId: number, day: number) => `${monitorId}:${day}`;

export function indexDays(rows: readonly DayCounts[]): Map<string, DayCounts> {
  return new Map(rows.map((r) => [key(r.monitorId, r.day), r]));
}

/** The last 90 UTC days of one monitor, oldest first, and the uptime over them. */
export function bars(
  monitorId: number,
  input: BarInput,
): { days: PublicDay[]; uptime: number | null } {
  const days: PublicDay[] = [];
  let checks = 0;
  let delivered = 0;
  for (let i = BAR_DAYS - 1; i >= 0; i--) {
    const day = input.today - i * DAY_MS;
    const k = key(monitorId, day);
    const d = input.counts.get(k);
    checks += d?.checks ?? 0;
    delivered += (d?.up ?? 0) + (d?.degraded ?? 0);
    days.push({
      date: new Date(day).toISOString().slice(0, 10),
      state: dayState(d, input.maintenanceDays.has(k)),
      uptime: d ? uptimePercent(d.up, d.degraded, d.checks) : null,
      outages: input.outages.get(k) ?? 0,
    });
  }
  return { days, uptime: uptimePercent(delivered, 0, checks) };
}

export const displayName = (c: { displayName: string; name: string }): string =>
  c.displayName.trim() || c.name;

export function presentIncident(
  r: PublicIncidentRecord,
  names: ReadonlyMap<number, string>,
): PublicIncident {
  return {
    id: r.id,
    title: r.title,
    state: r.state,
    severity: r.severity,
    startedAt: new Date(r.startedAt).toISOString(),
    resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt).toISOString(),
    components: r.monitorIds.flatMap((id) => names.get(id) ?? []),
    updates: r.updates.map((u) => ({
      at: new Date(u.at).toISOString(),
      state: u.state,
      message: u.message,
    })),
  };
}

export function presentComponent(
  c: PublicComponentRecord,
  status: ComponentStatus,
  bar: { days: PublicDay[]; uptime: number | null },
  show: { uptimeBars: boolean; currentLatency: boolean },
): PublicComponent {
  return {
    name: displayName(c),
    description: c.description,
    status,
    uptime: bar.uptime,
    ...(show.currentLatency
      ? { latencyMs: c.lastLatencyUs === null ? null : Math.round(c.lastLatencyUs / 1000) }
      : {}),
    days: show.uptimeBars ? bar.days : null,
  };
}
