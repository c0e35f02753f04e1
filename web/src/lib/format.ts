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

/** Compact relative time: "just now", "42s ago", "5m ago", "3h ago", "2d ago". */
export function formatRelative(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return DASH;
  const diff = Math.round((now - t) / 1000);
  const abs = Math.abs(diff);
  if (abs < 5) return 'just now';
  let text: string;
  if (abs < 60) text = `${abs}s`;
  else if (abs < 3600) text = `${Math.floor(abs / 60)}m`;
  else if (abs < 86_400) text = `${Math.floor(abs / 3600)}h`;
  else text = `${Math.floor(abs / 86_400)}d`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
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

const formatters = (timeZone: string | undefined) => ({
  dateTime: new Intl.DateTimeFormat(undefined, { ...dateTimeOptions, timeZone }),
  shortDateTime: new Intl.DateTimeFormat(undefined, { ...shortDateTimeOptions, timeZone }),
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
