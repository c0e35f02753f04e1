import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { monitorIncidentsQuery } from '../api/queries';
import { IncidentList } from './IncidentList';

/** The monitor page's incidents: its outages and the incidents that name it. */
export function MonitorIncidents({ monitorId }: { monitorId: number }) {
  const query = useInfiniteQuery(monitorIncidentsQuery(monitorId));
  const incidents = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="panel" aria-labelledby="incidents-heading" data-testid="monitor-incidents">
      <div className="panel__head">
        <h2 id="incidents-heading" className="panel__title">
          Incidents
        </h2>
      </div>
      {query.isPending && <LoadingBlock label="Loading incidents…" rows={2} />}
      {query.error && !query.data && (
        <ErrorNotice
          error={query.error}
          action={
            <Button size="sm" onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {query.data && incidents.length === 0 && (
        <p className="muted panel__empty">No incidents. An outage opens one automatically.</p>
      )}
      {incidents.length > 0 && (
        <IncidentList incidents={incidents} label={`Incidents of this monitor, open ones first`} />
      )}
      {query.hasNextPage && (
        <div className="panel__foot">
          <Button
            size="sm"
            busy={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Load older incidents
          </Button>
        </div>
      )}
    </section>
  );
}
