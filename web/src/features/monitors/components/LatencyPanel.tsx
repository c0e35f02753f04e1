import type { StatsWindow } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { Segmented } from '../../../components/ui/Segmented';
import { Skeleton } from '../../../components/ui/Skeleton';
import { formatMs } from '../../../lib/format';
import { monitorStatsQuery } from '../api/queries';

// uPlot is only fetched when a chart is on screen.
const LatencyChart = lazy(() => import('./LatencyChart'));

const windowLabel: Record<StatsWindow, string> = {
  '1h': '1 hour',
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
};
// Listed here rather than imported so this chunk does not pull in the zod schemas.
const options = (['1h', '24h', '7d', '30d', '90d'] as const).map((w) => ({ value: w, label: w }));

function ChartPlaceholder({ children }: { children?: ReactNode }) {
  return <div className="chart chart--placeholder">{children}</div>;
}

export function LatencyPanel({ monitorId }: { monitorId: number }) {
  const [window, setWindow] = useState<StatsWindow>('24h');
  const { data, error, isPlaceholderData, refetch, isRefetching } = useQuery(
    monitorStatsQuery(monitorId, window),
  );
  const latency = data?.latency;
  const figures = [
    { label: 'Average', value: latency?.avg },
    { label: 'p50', value: latency?.p50 },
    { label: 'p95', value: latency?.p95 },
    { label: 'p99', value: latency?.p99 },
  ];
  const hasPoints = data?.series.some((b) => b.checks > 0) ?? false;

  return (
    <section className="panel" aria-labelledby="latency-heading">
      <div className="panel__head">
        <h2 id="latency-heading" className="panel__title">
          Response time
        </h2>
        <Segmented label="Time window" value={window} options={options} onChange={setWindow} />
      </div>
      <dl className="figures" aria-busy={isPlaceholderData || undefined}>
        {figures.map((f) => (
          <div key={f.label} className="figure">
            <dt>{f.label}</dt>
            <dd>{data ? formatMs(f.value) : <Skeleton width={48} />}</dd>
          </div>
        ))}
        <div className="figure figure--note">
          <dt>Window</dt>
          <dd>{windowLabel[window]}</dd>
        </div>
      </dl>
      {error && !data ? (
        <ErrorNotice
          error={error}
          action={
            <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      ) : !data ? (
        <ChartPlaceholder>
          <Skeleton width="100%" height={200} />
        </ChartPlaceholder>
      ) : !hasPoints ? (
        <ChartPlaceholder>
          <p className="muted">No checks in the last {windowLabel[window]} yet.</p>
        </ChartPlaceholder>
      ) : (
        <Suspense
          fallback={
            <ChartPlaceholder>
              <Skeleton width="100%" height={200} />
            </ChartPlaceholder>
          }
        >
          <LatencyChart
            stats={data}
            label={`Response time over the last ${windowLabel[window]}, split by phase: average ${formatMs(latency?.avg)}, p95 ${formatMs(latency?.p95)}.`}
          />
        </Suspense>
      )}
    </section>
  );
}
