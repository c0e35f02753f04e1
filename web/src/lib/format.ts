const DASH = '—';

/** "84 ms", "1.24 s", "12.3 s"; a dash when unknown. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Uptime with two decimals, rounded down so 99.996 never claims "100%". */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (value >= 100) return '100%';
  return `${(Math.floor(value * 100) / 100).toFixed(2)}%`;
}

/*
 * One way of writing times across the app (issue 17): every screen formats through this module.
 * Relative times are compact English ("5m ago", "in 3h") like the rest of the interface's words;
 * absolute times follow the user's locale (order of day and month, 12/24 hours) and the
 * instance's display zone, or a named zone where a thing has its own (a maintenance window).
 */

/** The compact span of a number of seconds: "42s", "5m", "3h", "2d". */
function span(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${formatCount(Math.floor(seconds / 86_400))}d`;
}

/** Compact relative time: "just now", "42s ago", "5m ago", "3h ago", "2d ago", "in 4d". */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return DASH;
  const diff = Math.round((now - t) / 1000);
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  const text = span(abs);
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * An age known to the millisecond (a heartbeat), in the same words as formatRelative with a
 * tenth of a second below ten seconds, where the difference matters: "0.4s ago", "12s ago", "3m ago".
 */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return DASH;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s ago`;
  return `${span(Math.floor(ms / 1000))} ago`;
}

const dateTimeOptions: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};
const shortDateTimeOptions: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

const dateOptions: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

// `undefined` as the locale: the user's own (the browser's language settings).
const formatters = (timeZone: string | undefined) => ({
  dateTime: new Intl.DateTimeFormat(undefined, { ...dateTimeOptions, timeZone }),
  shortDateTime: new Intl.DateTimeFormat(undefined, { ...shortDateTimeOptions, timeZone }),
  date: new Intl.DateTimeFormat(undefined, { ...dateOptions, timeZone }),
});
// The browser's own zone until the instance's display time zone is known (Settings → General).
let current = formatters(undefined);
let currentZone: string | null = null;

/** Shows times in this IANA zone from now on; null for the browser's zone. */
export function setDisplayTimeZone(zone: string | null): void {
  if (zone === currentZone) return;
  try {
    current = formatters(zone ?? undefined);
    currentZone = zone;
  } catch {
    // A zone this browser does not know: keep showing its own.
  }
}

/** The IANA zone times are shown in: the instance's display zone, or the browser's own. */
export function displayTimeZone(): string {
  return currentZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? DASH : current.dateTime.format(t);
}

export function formatShortDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? DASH : current.shortDateTime.format(t);
}

/** A day without its time ("27 Nov 2026" or "Nov 27, 2026" by locale), in the display zone. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? DASH : current.date.format(t);
}

const zoned = new Map<string, Intl.DateTimeFormat>();
/** Minutes-precise times in a named zone (a maintenance window's), with or without the day. */
function inZone(zone: string, withDate: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withDate}`;
  let f = zoned.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, {
      timeZone: zone,
      ...(withDate ? { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    zoned.set(key, f);
  }
  return f;
}

const dayIn = (t: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(t);

/** "Sun, 29 Mar 2026, 03:00" in the given zone. */
export function formatInstantIn(iso: string, zone: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? DASH : inZone(zone, true).format(t);
}

/** "Sun, 29 Mar 2026, 03:00 – 04:30" in the given zone; the end repeats the date only when it differs. */
export function formatRangeIn(startsAt: string, endsAt: string, zone: string): string {
  const start = Date.parse(startsAt);
  const end = Date.parse(endsAt);
  if (Number.isNaN(start) || Number.isNaN(end)) return DASH;
  const sameDay = dayIn(start, zone) === dayIn(end, zone);
  return `${inZone(zone, true).format(start)} – ${inZone(zone, !sameDay).format(end)}`;
}

/** Seconds as "30 s", "5 min", "1 h 30 min", "1 d". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const parts: string[] = [];
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (s) parts.push(`${s} s`);
  return parts.slice(0, 2).join(' ');
}

const integer = new Intl.NumberFormat(undefined);
export const formatCount = (n: number): string => integer.format(n);

/** Plural helper: plural(1, 'check') → "1 check", plural(3, 'check') → "3 checks". */
export const plural = (n: number, word: string, many = `${word}s`): string =>
  `${formatCount(n)} ${n === 1 ? word : many}`;

/** A wait in words, rounded up: "30 seconds", "1 minute", "15 minutes", "2 hours". */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, 'second');
  const m = Math.ceil(s / 60);
  if (m < 60) return plural(m, 'minute');
  return plural(Math.ceil(m / 60), 'hour');
}

/** A countdown as "14:05" (minutes and seconds), for a button that waits. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
