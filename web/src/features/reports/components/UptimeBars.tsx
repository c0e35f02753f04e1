import type { Report } from '@pagewatch/contract';
import { formatPercent } from '../../../lib/format';

/** Uptime of every monitor per period: checks summed, so a busier monitor weighs more. */
export function periodUptimes(r: Report): { label: string; uptime: number | null }[] {
  const labels = r.monitors[0]?.periods.map((p) => p.label) ?? [];
  return labels.map((label, i) => {
    let checks = 0;
    let good = 0;
    for (const m of r.monitors) {
      const p = m.periods[i];
      if (!p || p.uptime === null) continue;
      checks += p.checks;
      good += (p.uptime / 100) * p.checks;
    }
    return { label, uptime: checks === 0 ? null : (good / checks) * 100 };
  });
}

const toneOf = (u: number | null) =>
  u === null ? 'none' : u >= 99.9 ? 'good' : u >= 99 ? 'warn' : 'bad';

/**
 * Uptime per day or month as bars, scaled from a point below the worst period to 100 % (as the
 * PDF draws them), so a 99.5 % day still shows. Each bar says its figure to assistive tech.
 */
export function UptimeBars({ report }: { report: Report }) {
  const values = periodUptimes(report);
  const known = values.flatMap((v) => (v.uptime === null ? [] : [v.uptime]));
  const low = Math.max(0, Math.min(99, Math.floor(Math.min(100, ...known)) - 1));
  const day = report.periodKind === 'day';
  return (
    <figure className="report-bars" aria-label={`Uptime per ${report.periodKind}`}>
      <div className="report-bars__axis" aria-hidden="true">
        <span>100%</span>
        <span>{low}%</span>
      </div>
      <ol className="report-bars__plot">
        {values.map((v) => {
          const h = v.uptime === null ? 0 : Math.max(2, ((v.uptime - low) / (100 - low)) * 100);
          const text = `${v.label}: ${v.uptime === null ? 'no checks' : formatPercent(v.uptime)}`;
          return (
            <li key={v.label} className="report-bars__slot" title={text} aria-label={text}>
              <span
                className={`report-bars__bar report-bars__bar--${toneOf(v.uptime)}`}
                style={{ height: `${h}%` }}
              />
              <span className="report-bars__label" aria-hidden="true">
                {day ? v.label.slice(8) : v.label.slice(5)}
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}
