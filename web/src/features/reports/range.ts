import { wallClockAt } from '@pagewatch/contract';

const pad = (n: number) => String(n).padStart(2, '0');

/** Today in `zone`, `YYYY-MM-DD`. */
export function today(zone: string, now = Date.now()): string {
  const w = wallClockAt(now, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The day `days` before `ymd`. */
export function daysBefore(ymd: string, days: number): string {
  const t = Date.parse(`${ymd}T00:00:00Z`) - days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** This month and the twelve before it, or this quarter and the four before it, newest first. */
export function recentPeriods(kind: 'month' | 'quarter', zone: string, now = Date.now()): string[] {
  const out: string[] = [];
  const w = wallClockAt(now, zone);
  if (kind === 'month') {
    for (let i = 0; i <= 12; i++) {
      const k = w.year * 12 + (w.month - 1) - i;
      out.push(`${Math.floor(k / 12)}-${pad((k % 12) + 1)}`);
    }
    return out;
  }
  const q0 = w.year * 4 + Math.floor((w.month - 1) / 3);
  for (let i = 0; i <= 4; i++) {
    const k = q0 - i;
    out.push(`${Math.floor(k / 4)}-Q${(k % 4) + 1}`);
  }
  return out;
}
