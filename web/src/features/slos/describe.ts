import type { SloHealth, SloWindow } from '@pagewatch/contract';

export const windowLabels: Record<SloWindow, string> = {
  month: 'Calendar month',
  quarter: 'Calendar quarter',
  '7d': 'Rolling 7 days',
  '28d': 'Rolling 28 days',
  '30d': 'Rolling 30 days',
};

export const healthLabels: Record<SloHealth, string> = {
  healthy: 'Healthy',
  at_risk: 'At risk',
  exhausted: 'Budget spent',
  no_data: 'No data',
};

/** "43 min", "1 d 9 h", "12 s": the two largest units of a span. */
export function formatSpan(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return '0 s';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const parts: string[] = [];
  let rest = abs;
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 || parts.length > 0) {
      if (n > 0) parts.push(`${n} ${name}`);
      rest -= n * size;
    }
    if (parts.length === 2) break;
  }
  return `${ms < 0 ? '−' : ''}${parts.join(' ')}`;
}

/** Burn rate as people read it: "0.4×", "14×". */
export const formatBurn = (v: number | null): string =>
  v === null ? '—' : `${v < 10 ? Math.round(v * 10) / 10 : Math.round(v)}×`;
