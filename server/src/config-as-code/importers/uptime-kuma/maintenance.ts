import {
  isValidTimeZone,
  localToInstant,
  MaintenanceEntry,
  maintenanceLimits,
  type ImportItem,
} from '@pagewatch/contract';
import { item, kumaKeys, skipped } from './keys.js';
import type { KumaMaintenance, KumaMonitor, KumaSource } from './source.js';

class NoSchedule extends Error {}

/** Kuma's `2026-11-25 00:00:00` (or an ISO form) as `2026-11-25T00:00`. */
function local(value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(value.trim());
  return m ? `${m[1]}T${m[2]}` : null;
}

/** `HH:mm[:ss]` → minutes after midnight. */
function minutesOf(time: string | null): number | null {
  const m = /^(\d{1,2}):(\d{2})/.exec(time ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

function durationMinutes(w: KumaMaintenance): number {
  if (w.duration !== null && w.duration > 0) return Math.round(w.duration / 60);
  const start = minutesOf(w.startTime);
  const end = minutesOf(w.endTime);
  if (start === null || end === null) throw new NoSchedule('it has no start and end time');
  return end > start ? end - start : end + 1440 - start;
}

function zoneOf(w: KumaMaintenance, serverZone: string | null): string {
  const zone = w.timezone === null || w.timezone === 'SAME_AS_SERVER' ? serverZone : w.timezone;
  return zone !== null && isValidTimeZone(zone) ? zone : 'UTC';
}

/** Kuma's strategies as Pagewatch's schedule kinds (contract/src/maintenance.ts). */
function scheduleOf(w: KumaMaintenance, zone: string): Record<string, unknown> {
  const from = local(w.startDate);
  const until = local(w.endDate);
  switch (w.strategy) {
    case 'single': {
      const starts = from === null ? null : localToInstant(from, zone);
      const ends = until === null ? null : localToInstant(until, zone);
      if (starts === null || ends === null) throw new NoSchedule('it has no start or end date');
      return {
        kind: 'once',
        startsAt: new Date(starts).toISOString(),
        endsAt: new Date(ends).toISOString(),
      };
    }
    case 'cron':
    case 'recurring-weekday':
    case 'recurring-day-of-month': {
      // Kuma 2.x stores the cron it generated for every recurring strategy but the interval one.
      if (!w.cron || w.cron.trim() === '') throw new NoSchedule('it has no cron expression');
      return {
        kind: 'cron',
        expression: w.cron.trim(),
        durationMinutes: durationMinutes(w),
        from: from ?? '1970-01-01T00:00',
        until,
      };
    }
    case 'recurring-interval': {
      const day = (from ?? '').slice(0, 10);
      const start = minutesOf(w.startTime);
      if (day === '' || start === null) throw new NoSchedule('it has no start date and time');
      const hhmm = `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`;
      return {
        kind: 'rrule',
        expression: `FREQ=DAILY;INTERVAL=${Math.max(1, w.intervalDay ?? 1)}`,
        durationMinutes: durationMinutes(w),
        from: `${day}T${hhmm}`,
        until,
      };
    }
    case 'manual':
      throw new NoSchedule(
        'a manual window is on until someone ends it; Pagewatch windows have a schedule — create a one-off window when you need it',
      );
    default:
      throw new NoSchedule(`its strategy "${w.strategy}" is unknown to Pagewatch`);
  }
}

function descendants(ids: readonly number[], monitors: readonly KumaMonitor[]): number[] {
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const m of monitors) {
      if (m.parent !== null && out.has(m.parent) && !out.has(m.id)) {
        out.add(m.id);
        grew = true;
      }
    }
  }
  return [...out];
}

export interface MappedMaintenance {
  entries: MaintenanceEntry[];
  items: ImportItem[];
}

/**
 * Kuma's windows. A group in a window covers its members (Kuma's rule); a window linked only
 * to status pages covers the monitors on them.
 */
export function mapMaintenance(
  src: KumaSource,
  monitorKeyOf: Map<number, string>,
): MappedMaintenance {
  const out: MappedMaintenance = { entries: [], items: [] };
  for (const w of src.maintenance) {
    const source = `maintenance #${w.id} (${w.strategy})`;
    const notes: string[] = [];
    if (!w.active) {
      out.items.push(
        skipped(
          'maintenance',
          source,
          w.title,
          'It is paused in Uptime Kuma; Pagewatch windows cannot be paused',
        ),
      );
      continue;
    }
    let ids = descendants(w.monitorIds, src.monitors);
    if (ids.length === 0 && w.statusPageIds.length > 0) {
      ids = src.statusPages
        .filter((p) => w.statusPageIds.includes(p.id))
        .flatMap((p) => p.groups.flatMap((g) => g.monitorIds));
      notes.push('It covers the monitors of the status pages it was shown on');
    }
    const monitors = [
      ...new Set(ids.map((id) => monitorKeyOf.get(id)).filter((k): k is string => k !== undefined)),
    ];
    if (monitors.length === 0) {
      out.items.push(skipped('maintenance', source, w.title, 'None of its monitors was imported'));
      continue;
    }
    const zone = zoneOf(w, src.serverTimezone);
    let schedule: Record<string, unknown>;
    try {
      schedule = scheduleOf(w, zone);
    } catch (err) {
      if (!(err instanceof NoSchedule)) throw err;
      out.items.push(
        skipped('maintenance', source, w.title, `It cannot be scheduled: ${err.message}`),
      );
      continue;
    }
    const entry = {
      key: kumaKeys.maintenance(w.id),
      title: w.title.trim().slice(0, maintenanceLimits.titleMax),
      description: w.description.slice(0, maintenanceLimits.descriptionMax),
      timezone: zone,
      scope: { kind: 'monitors', monitors: monitors.slice(0, maintenanceLimits.monitorsMax) },
      schedule,
    };
    const parsed = MaintenanceEntry.safeParse(entry);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      out.items.push(
        skipped('maintenance', source, w.title, `Pagewatch refuses its settings: ${why}`, notes),
      );
      continue;
    }
    if (w.statusPageIds.length > 0)
      notes.push('Pagewatch shows it on the status pages of its monitors');
    out.entries.push(parsed.data);
    out.items.push(item('maintenance', source, w.title, entry.key, notes));
  }
  return out;
}
