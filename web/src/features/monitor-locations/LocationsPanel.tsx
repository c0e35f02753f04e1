import './monitor-locations.css';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Icon } from '../../components/ui/Icon';
import { formatMs, formatPercent, formatShortDateTime } from '../../lib/format';
import { statusMeta } from '../monitors/components/status';
import { locationLatencyQuery, monitorLocationsQuery } from './api';

// uPlot is only fetched when the chart is on screen.
const LocationLatencyChart = lazy(() => import('./LocationLatencyChart'));

const verdictLabel = {
  up: 'Up',
  degraded: 'Degraded',
  down: 'Down',
  stale: 'No recent verdict',
  none: 'Not reported yet',
} as const;

/**
 * The monitor page's locations (ADR 58): each location's verdict, latency and 24 h uptime, the
 * failing ones named, and latency split by location. Shown only for monitors checked from more
 * than `local`.
 */
export function LocationsPanel({ monitorId }: { monitorId: number }) {
  const { data } = useQuery(monitorLocationsQuery(monitorId));
  const several = !!data && (data.locations.length > 1 || data.locations[0]?.id !== 'local');
  const latency = useQuery({ ...locationLatencyQuery(monitorId), enabled: several });
  if (!data || !several) return null;
  const k = data.quorum === null ? `a majority (${data.k} now)` : String(data.quorum);
  return (
    <section className="panel" aria-labelledby="locations-heading" data-testid="locations-panel">
      <div className="panel__head">
        <h2 id="locations-heading" className="panel__title">
          Locations
        </h2>
        <span className="muted">
          Down when {k} of {data.locations.length} fail
        </span>
      </div>
      {data.failing.length > 0 && (
        <p className="mloc-failing" role="status">
          <Icon name="alertTriangle" size={14} /> Failing from {data.failing.join(', ')}
        </p>
      )}
      <table className="mloc-table">
        <thead>
          <tr>
            <th scope="col">Location</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Latency
            </th>
            <th scope="col" className="num">
              Uptime 24 h
            </th>
            <th scope="col" className="mloc-hide-narrow">
              Last check
            </th>
          </tr>
        </thead>
        <tbody>
          {data.locations.map((l) => {
            const outcome = l.status === 'stale' || l.status === 'none' ? null : l.status;
            return (
              <tr key={l.id} data-location={l.id} data-status={l.status}>
                <th scope="row" dir="auto">
                  {l.name}
                </th>
                <td>
                  <span className={outcome ? `outcome outcome--${outcome}` : 'muted'}>
                    {outcome && <Icon name={statusMeta[outcome].icon} size={14} />}
                    {verdictLabel[l.status]}
                  </span>
                  {l.status === 'down' && l.errorMessage && (
                    <div className="mloc-error">{l.errorMessage}</div>
                  )}
                </td>
                <td className="num">{formatMs(l.latencyMs)}</td>
                <td className="num">{formatPercent(l.uptime24h)}</td>
                <td className="mloc-hide-narrow">
                  {l.checkedAt ? formatShortDateTime(l.checkedAt) : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {latency.data && latency.data.series.length > 0 && (
        <Suspense fallback={<div className="chart chart--placeholder" />}>
          <LocationLatencyChart series={latency.data.series} />
        </Suspense>
      )}
    </section>
  );
}
