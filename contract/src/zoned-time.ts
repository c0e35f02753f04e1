/**
 * Wall-clock time in an IANA time zone, with Intl only: no time-zone database ships with us,
 * the runtime's is the one both the server and the browser already trust.
 *
 * A local date-time is written `YYYY-MM-DDTHH:mm` (no offset: it means "what the wall clock in
 * the zone shows"). Turning one into an instant follows two rules wherever the zone's offset
 * changes:
 * - a time skipped by a spring-forward gap (02:30 when clocks jump 02:00 → 03:00) becomes the
 *   first instant after the gap (03:00 local): the window starts as soon as the time exists;
 * - a time that happens twice at a fall-back (01:30 when clocks go 02:00 → 01:00) is the first
 *   of the two, i.e. the one with the earlier instant.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True for a zone name this runtime knows (e.g. `Europe/Berlin`, `UTC`). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '' || zone.length > 64) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What the wall clock in `zone` shows at instant `t` (epoch ms). */
export function wallClockAt(t: number, zone: string): WallClock {
  const parts = formatter(zone).formatToParts(new Date(t));
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The zone's offset from UTC at instant `t`, in ms (east positive). */
export function offsetAt(t: number, zone: string): number {
  const w = wallClockAt(t, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (t - (((t % 1000) + 1000) % 1000));
}

/** Parses `YYYY-MM-DDTHH:mm` into "floating" epoch ms: the wall-clock reading as if it were UTC. */
export function parseLocal(value: string): number | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  // Date.UTC reads years 0–99 as 1900–1999; schedules live in this era anyway.
  if (y < 1970 || y > 9999) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(t);
  // Rejects 2026-02-30 and 25:00, which Date.UTC would quietly roll over.
  if (back.getUTCDate() !== d || back.getUTCMonth() !== mo - 1 || h > 23) return null;
  return t;
}

/** Formats floating epoch ms (wall-clock as UTC) as `YYYY-MM-DDTHH:mm`. */
export function formatLocal(floating: number): string {
  return new Date(floating).toISOString().slice(0, 16);
}

const HOUR = 3_600_000;

/**
 * The instant at which the wall clock in `zone` shows `floating` (wall-clock reading as UTC ms),
 * with the gap and overlap rules above.
 */
export function instantOfWallClock(floating: number, zone: string): number {
  // Offsets either side of any change near this time; zones change at most once in a day.
  const candidates = new Set([
    offsetAt(floating - 30 * HOUR, zone),
    offsetAt(floating + 30 * HOUR, zone),
  ]);
  candidates.add(offsetAt(floating, zone));
  const valid = [...candidates]
    .map((o) => floating - o)
    .filter((t) => offsetAt(t, zone) === floating - t)
    .sort((a, b) => a - b);
  if (valid.length > 0) return valid[0]!;
  // In a gap: the clocks jumped over this reading. Find the first instant after the jump.
  const offsets = [...candidates].sort((a, b) => a - b);
  let lo = floating - offsets[offsets.length - 1]!;
  let hi = floating - offsets[0]!;
  const before = offsetAt(lo, zone);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, zone) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** `YYYY-MM-DDTHH:mm` in `zone` → epoch ms; null when the text is not a valid local time. */
export function localToInstant(value: string, zone: string): number | null {
  const floating = parseLocal(value);
  return floating === null ? null : instantOfWallClock(floating, zone);
}

/** Epoch ms → `YYYY-MM-DDTHH:mm` as the wall clock in `zone` shows it. */
export function instantToLocal(t: number, zone: string): string {
  const w = wallClockAt(t, zone);
  return formatLocal(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute));
}
