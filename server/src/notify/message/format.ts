import type { FailurePhase } from '@pagewatch/contract';

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
] as const;

/** "3 d 4 h", "2 h 5 min", "42 s": the two largest units, as people say it. */
export function humanDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const i = UNITS.findIndex(([, size]) => ms >= size);
  const [unit, size] = UNITS[i]!;
  const n = Math.floor(ms / size);
  const next = UNITS[i + 1];
  const m = next ? Math.floor((ms - n * size) / next[1]) : 0;
  return next && m > 0 ? `${n} ${unit} ${m} ${next[0]}` : `${n} ${unit}`;
}

/** "2026-11-22 06:05 UTC": unambiguous in every receiver's time zone. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const PHASES: Record<FailurePhase, string> = {
  dns: 'DNS lookup',
  connect: 'connecting',
  tls: 'TLS handshake',
  ttfb: 'waiting for the response',
  content: 'checking the response',
  browser: 'browser check',
  other: 'other',
};

export function phaseLabel(phase: FailurePhase): string {
  return PHASES[phase];
}

/** How alarming an event is; each channel maps it to its own colour or priority. */
export type Tone = 'critical' | 'warning' | 'ok' | 'info';

export const toneColor: Record<Tone, string> = {
  critical: '#d1242f',
  warning: '#bf8700',
  ok: '#1a7f37',
  info: '#0969da',
};
