import type { MaintenanceSchedule, MaintenanceScope } from '@pagewatch/contract';
import { presetOf, weekdays } from './presets';

/** "45 min", "2 h", "1 h 30 min", "3 days". */
export function durationLabel(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const dayNames = (codes: string[]) =>
  codes.map((c) => weekdays.find((d) => d.code === c)?.long ?? c).join(', ');

/** The schedule in plain words, e.g. "Every Sunday at 02:30 for 1 h". */
export function describeSchedule(s: MaintenanceSchedule): string {
  if (s.kind === 'once') return 'Once';
  const length = `for ${durationLabel(s.durationMinutes)}`;
  if (s.kind === 'cron') return `Cron ${s.expression} ${length}`;
  const preset = presetOf(s.expression);
  if (preset?.repeat === 'daily') return `Every day at ${preset.time} ${length}`;
  if (preset?.repeat === 'weekly')
    return `Every ${dayNames(preset.days)} at ${preset.time} ${length}`;
  return `RRULE ${s.expression} ${length}`;
}

export function describeScope(scope: MaintenanceScope, names: ReadonlyMap<number, string>): string {
  if (scope.kind === 'all') return 'All monitors';
  const known = scope.monitorIds.map((id) => names.get(id) ?? `#${id}`);
  const shown = known.slice(0, 3).join(', ');
  const more = known.length > 3 ? ` and ${known.length - 3} more` : '';
  return `${shown}${more}`;
}
