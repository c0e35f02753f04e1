/** Weekdays as RRULE spells them, Monday first, with the words the form shows. */
export const weekdays = [
  { code: 'MO', short: 'Mon', long: 'Monday' },
  { code: 'TU', short: 'Tue', long: 'Tuesday' },
  { code: 'WE', short: 'Wed', long: 'Wednesday' },
  { code: 'TH', short: 'Thu', long: 'Thursday' },
  { code: 'FR', short: 'Fri', long: 'Friday' },
  { code: 'SA', short: 'Sat', long: 'Saturday' },
  { code: 'SU', short: 'Sun', long: 'Sunday' },
] as const;

export type Preset =
  { repeat: 'daily'; time: string } | { repeat: 'weekly'; time: string; days: string[] };

const pad = (n: number) => String(n).padStart(2, '0');

/** The RRULE a preset stands for: the form's simple choices are ordinary RRULEs underneath. */
export function presetRule(p: Preset): string {
  const [h = 0, m = 0] = p.time.split(':').map(Number);
  const at = `BYHOUR=${h};BYMINUTE=${m}`;
  return p.repeat === 'daily' ? `FREQ=DAILY;${at}` : `FREQ=WEEKLY;BYDAY=${p.days.join(',')};${at}`;
}

const DAILY = /^FREQ=DAILY;BYHOUR=(\d{1,2});BYMINUTE=(\d{1,2})$/;
const WEEKLY =
  /^FREQ=WEEKLY;BYDAY=((?:MO|TU|WE|TH|FR|SA|SU)(?:,(?:MO|TU|WE|TH|FR|SA|SU))*);BYHOUR=(\d{1,2});BYMINUTE=(\d{1,2})$/;

/** The preset an RRULE was made from, so editing a window shows the simple form again. */
export function presetOf(expression: string): Preset | null {
  const daily = DAILY.exec(expression);
  if (daily) return { repeat: 'daily', time: `${pad(Number(daily[1]))}:${pad(Number(daily[2]))}` };
  const weekly = WEEKLY.exec(expression);
  if (weekly) {
    return {
      repeat: 'weekly',
      days: weekly[1]!.split(','),
      time: `${pad(Number(weekly[2]))}:${pad(Number(weekly[3]))}`,
    };
  }
  return null;
}
