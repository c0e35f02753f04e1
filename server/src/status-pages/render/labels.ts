import type { IncidentState } from '@pagewatch/contract';
import type {
  ComponentStatus,
  OverallStatus,
  PublicComponent,
  PublicDay,
  PublicLocation,
} from '../view-model.js';

export const overallLabel: Record<OverallStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Maintenance in progress',
  unknown: 'Some components’ status is unknown',
  no_data: 'No data yet',
};

export const componentLabel: Record<ComponentStatus, string> = {
  up: 'Operational',
  degraded: 'Degraded performance',
  down: 'Outage',
  // Amber: up from most places; the failing ones are named when the component shows locations.
  regional: 'Degraded in some regions',
  unknown: 'Status unknown',
  maintenance: 'Under maintenance',
  paused: 'Not monitored',
  pending: 'No data yet',
};

/** A component's status in words: REGIONAL names where, when the page may say (ADR 66). */
export function statusText(c: Pick<PublicComponent, 'status' | 'failing'>): string {
  if (c.status === 'regional' && c.failing && c.failing.length > 0)
    return `Degraded in ${c.failing.join(', ')}`;
  return componentLabel[c.status];
}

export const locationLabel: Record<PublicLocation['status'], string> = {
  up: 'Operational',
  degraded: 'Degraded',
  down: 'Failing',
  unknown: 'Unknown',
};

const monthFormats = {
  short: new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }),
  year: new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
};

/** "2026-03" → "Mar", "Mar 2026" and "March 2026". */
export function monthName(month: string): { short: string; year: string; long: string } {
  const at = new Date(`${month}-01T00:00:00Z`);
  return {
    short: monthFormats.short.format(at),
    year: monthFormats.year.format(at),
    long: monthFormats.long.format(at),
  };
}

export const stateLabel: Record<IncidentState, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

const shortDays = new Map<string, string>();

/** "12 Nov"; a page repeats the same 90 dates for every component, so they are kept. */
export function shortDay(date: string): string {
  let day = shortDays.get(date);
  if (day === undefined) {
    if (shortDays.size > 1000) shortDays.clear();
    day = dayFormat.format(new Date(`${date}T00:00:00Z`));
    shortDays.set(date, day);
  }
  return day;
}
export const when = (iso: string): string => `${timeFormat.format(new Date(iso))} UTC`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What a day bar says to screen readers and in its tooltip. */
export function dayLabel(d: PublicDay): string {
  const day = shortDay(d.date);
  if (d.uptime === null) return `${day}: ${d.state === 'maintenance' ? 'maintenance' : 'no data'}`;
  const outages = d.outages > 0 ? `, ${plural(d.outages, 'outage')}` : '';
  const maintenance = d.state === 'maintenance' ? ', maintenance' : '';
  return `${day}: ${formatPercent(d.uptime)} up${outages}${maintenance}`;
}

export function formatPercent(p: number | null): string {
  if (p === null) return 'no data';
  const fixed = p === 100 ? '100' : p >= 99.995 ? '99.99' : p.toFixed(2).replace(/\.?0+$/, '');
  return `${fixed}%`;
}
