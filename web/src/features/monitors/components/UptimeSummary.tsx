import type { StatsWindow } from '@pagewatch/contract';
import { useQueries } from '@tanstack/react-query';
import { Skeleton } from '../../../components/ui/Skeleton';
import { formatPercent, plural } from '../../../lib/format';
import { monitorStatsQuery } from '../api/queries';

const windows: readonly { value: StatsWindow; label: string }[] = [
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
];

function tone(uptime: number | null): string {
  if (uptime === null) return '';
  if (uptime >= 99.9) return 'stat__value--good';
  if (uptime >= 99) return 'stat__value--warn';
  return 'stat__value--bad';
}

/** Uptime for each standard window, one card each. */
export function UptimeSummary({ monitorId }: { monitorId: number }) {
  const results = useQueries({
    queries: windows.map((w) => monitorStatsQuery(monitorId, w.value)),
  });
  return (
    <section className="stats" aria-labelledby="uptime-heading">
      <h2 id="uptime-heading" className="visually-hidden">
        Uptime
      </h2>
      {windows.map((w, i) => {
        const q = results[i];
        const stats = q?.data;
        return (
          <div className="stat" key={w.value} data-testid={`uptime-${w.value}`}>
            <p className="stat__label">Uptime · {w.label}</p>
            {stats ? (
              <>
                <p className={`stat__value ${tone(stats.uptime)}`}>{formatPercent(stats.uptime)}</p>
                <p className="stat__sub">
                  {stats.checks === 0
                    ? 'No checks yet'
                    : `${plural(stats.checks, 'check')}${stats.down ? ` · ${stats.down} failed` : ''}`}
                </p>
              </>
            ) : q?.error ? (
              <p className="stat__sub text-down">Could not load</p>
            ) : (
              <>
                <Skeleton width={80} height={24} />
                <Skeleton width={100} />
              </>
            )}
          </div>
        );
      })}
    </section>
  );
}
