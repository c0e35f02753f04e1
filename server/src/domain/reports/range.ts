import { calendarPeriods, midnight, type Period } from '../availability/index.js';

/** A report's range and its rows: days for a month or a short range, months otherwise. */
export interface ReportRange {
  start: number;
  end: number;
  label: string;
  periodKind: 'day' | 'month';
  periods: Period[];
}

export type RangeRequest =
  { kind: 'month' | 'quarter'; period: string } | { kind: 'custom'; from: string; to: string };

/** Custom ranges up to this many days are reported per day. */
const DAILY_UP_TO_DAYS = 62;
/** A report covers at most this many days (a year and a leap day). */
export const MAX_REPORT_DAYS = 366;

const ymd = (v: string): [number, number, number] => {
  const [y, m, d] = v.split('-').map(Number) as [number, number, number];
  return [y, m - 1, d];
};

/** The range a request names in `zone`, or a message saying what is wrong with it. */
export function reportRange(req: RangeRequest, zone: string): ReportRange | string {
  let start: number;
  let end: number;
  let label: string;
  if (req.kind === 'month') {
    const m = /^(\d{4})-(\d{2})$/.exec(req.period);
    if (!m) return 'Enter a month like 2026-03';
    const [y, mo] = [Number(m[1]), Number(m[2]) - 1];
    [start, end, label] = [midnight(y, mo, 1, zone), midnight(y, mo + 1, 1, zone), req.period];
  } else if (req.kind === 'quarter') {
    const q = /^(\d{4})-Q([1-4])$/.exec(req.period);
    if (!q) return 'Enter a quarter like 2026-Q1';
    const [y, first] = [Number(q[1]), (Number(q[2]) - 1) * 3];
    [start, end, label] = [
      midnight(y, first, 1, zone),
      midnight(y, first + 3, 1, zone),
      req.period,
    ];
  } else {
    const custom = req as Extract<RangeRequest, { kind: 'custom' }>;
    const [fy, fm, fd] = ymd(custom.from);
    const [ty, tm, td] = ymd(custom.to);
    start = midnight(fy, fm, fd, zone);
    end = midnight(ty, tm, td + 1, zone);
    if (!(end > start)) return 'The end date must not come before the start date';
    if (end - start > (MAX_REPORT_DAYS + 1) * 86_400_000) {
      return `A report covers at most ${MAX_REPORT_DAYS} days`;
    }
    label = custom.from === custom.to ? custom.from : `${custom.from} – ${custom.to}`;
  }
  const days = (end - start) / 86_400_000;
  const periodKind =
    req.kind === 'month' || (req.kind === 'custom' && days <= DAILY_UP_TO_DAYS) ? 'day' : 'month';
  return {
    start,
    end,
    label,
    periodKind,
    periods: calendarPeriods({ start, end }, periodKind, zone),
  };
}
