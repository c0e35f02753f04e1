import type { Shift } from './schedule.js';

/** iCalendar TEXT escaping (RFC 5545 §3.3.11). */
const text = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** UTC date-time: DST never enters the feed, every calendar shows the local time itself. */
const stamp = (t: number) =>
  new Date(t)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Lines longer than 75 octets are folded (RFC 5545 §3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut -= 1;
    out.push(rest.slice(0, cut));
    rest = ` ${rest.slice(cut)}`;
  }
  out.push(rest);
  return out.join('\r\n');
}

/**
 * An on-call calendar: one event per shift with somebody on call, titled "On call: <name>".
 * UIDs depend on the schedule, person and start, so a calendar app updates rather than doubles.
 */
export function icalFeed(input: {
  calendarName: string;
  scheduleId: number;
  shifts: readonly Shift[];
  nameOf: (userId: number) => string;
  now: number;
  /** The event's UID where shifts come from several schedules. */
  uidOf?: (shift: Shift) => string;
}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Pagewatch//On call//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${text(input.calendarName)}`,
  ];
  for (const s of input.shifts) {
    if (s.userId === null) continue;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${input.uidOf?.(s) ?? `oncall-${input.scheduleId}-${s.userId}-${s.start}`}@pagewatch`,
      `DTSTAMP:${stamp(input.now)}`,
      `DTSTART:${stamp(s.start)}`,
      `DTEND:${stamp(s.end)}`,
      `SUMMARY:${text(`On call: ${input.nameOf(s.userId)}`)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
