import type { Report } from '@pagewatch/contract';

/** The CSV's columns, in order (docs/reports.md describes each). */
export const csvColumns = [
  'monitor_id',
  'monitor',
  'period',
  'from',
  'to',
  'uptime_percent',
  'downtime_seconds',
  'checks',
  'excluded_checks',
  'incidents',
  'mttr_seconds',
  'mtbf_seconds',
  'p50_ms',
  'p95_ms',
  'p99_ms',
  'slo',
  'slo_met',
] as const;

type Cell = string | number | null;

/**
 * One field: quoted when it holds a comma, quote or line break; a leading = + - @ is
 * prefixed with ' so a spreadsheet shows a monitor's name instead of running it as a formula.
 */
export function csvField(v: Cell): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const metWord = (met: boolean | null) => (met === null ? 'no data' : met ? 'met' : 'missed');

/**
 * An SLO's row (period `slo`): its subject, attainment over the range as `uptime_percent`,
 * `slo` the name and target, `slo_met` met, missed or no data (ADR 71).
 */
function sloRow(r: Report, s: Report['slos'][number]): Cell[] {
  const latency = s.latency ? `; ${s.latency.percent} % under ${s.latency.thresholdMs} ms` : '';
  return [
    null,
    s.subjectLabel,
    'slo',
    r.from,
    r.to,
    s.attainment,
    null,
    s.checks,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    `${s.name} (target ${s.target} %${latency})`,
    metWord(s.met),
  ];
}

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

/** A row per monitor and period, then the monitor's total row (period `total`), then SLO rows. */
export function reportCsv(r: Report): string {
  const rows: Cell[][] = [[...csvColumns]];
  for (const m of r.monitors) {
    for (const p of m.periods) {
      rows.push([
        m.id,
        m.name,
        p.label,
        p.from,
        p.to,
        p.uptime,
        seconds(p.downtimeMs),
        p.checks,
        p.excludedChecks,
        null,
        null,
        null,
        p.latency.p50,
        p.latency.p95,
        p.latency.p99,
        null,
        null,
      ]);
    }
    rows.push([
      m.id,
      m.name,
      'total',
      r.from,
      r.to,
      m.uptime,
      seconds(m.downtimeMs),
      m.checks,
      m.excludedChecks,
      m.incidents,
      seconds(m.mttrMs),
      seconds(m.mtbfMs),
      m.latency.p50,
      m.latency.p95,
      m.latency.p99,
      null,
      null,
    ]);
  }
  for (const s of r.slos) rows.push(sloRow(r, s));
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A file name for the download: the subject and range, safe in a header. */
export function reportFileName(r: Report, ext: 'csv' | 'pdf'): string {
  const safe = `${r.subject.name} ${r.label}`
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._ -]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
  return `pagewatch-report-${safe || 'report'}.${ext}`;
}
