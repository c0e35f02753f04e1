import type { IncidentListFilter } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { ErrorNotice } from '../../../components/ui/Notice';
import { Segmented } from '../../../components/ui/Segmented';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { useCan } from '../../auth/api/session';
import { incidentListQuery } from '../api/queries';
import { DeclareIncidentDialog } from './DeclareIncidentDialog';
import { IncidentList } from './IncidentList';

const filters: readonly { value: IncidentListFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
];
const isFilter = (v: string | null): v is IncidentListFilter => filters.some((f) => f.value === v);

const emptyText: Record<IncidentListFilter, string> = {
  all: 'Pagewatch opens an incident when a monitor goes down and resolves it when the monitor is back. Declare one by hand for anything else people should know about.',
  open: 'Nothing is going on right now.',
  resolved: 'No incident has been resolved yet.',
  investigating: 'No incident is being investigated.',
  identified: 'No incident has its cause identified and is still open.',
  monitoring: 'No incident is being monitored after a fix.',
};

/** Every incident, open ones first; the filter lives in the URL so a view can be shared. */
export function IncidentsScreen() {
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const state: IncidentListFilter = isFilter(stateParam) ? stateParam : 'all';
  const query = useInfiniteQuery(incidentListQuery(state));
  const incidents = query.data?.pages.flatMap((p) => p.items);
  const canEdit = useCan('editor');
  const navigate = useNavigate();
  const [declaring, setDeclaring] = useState(false);
  const open = incidents?.filter((i) => i.resolvedAt === null).length ?? 0;

  return (
    <>
      <title>{open > 0 ? `(${open} open) Incidents · Pagewatch` : 'Incidents · Pagewatch'}</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Incidents</h1>
          <p className="page-sub">Outages Pagewatch detected and incidents your team declared.</p>
        </div>
        {canEdit && (
          <Button variant="primary" icon="plus" onClick={() => setDeclaring(true)}>
            Declare incident
          </Button>
        )}
      </div>
      <div className="toolbar ifilter">
        <Segmented
          label="Show"
          value={state}
          options={filters}
          onChange={(v) => setParams(v === 'all' ? {} : { state: v }, { replace: true })}
        />
      </div>
      {query.isPending && <LoadingBlock label="Loading incidents…" rows={5} />}
      {query.error && !incidents && (
        <ErrorNotice
          error={query.error}
          action={
            <Button size="sm" busy={query.isRefetching} onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {incidents && incidents.length === 0 && (
        <EmptyState
          icon="checkCircle"
          title={state === 'open' ? 'No open incidents' : 'No incidents'}
        >
          {emptyText[state]}
        </EmptyState>
      )}
      {incidents && incidents.length > 0 && (
        <section className="section" aria-label="Incident list">
          <IncidentList incidents={incidents} label="Incidents, open ones first" />
          {(query.hasNextPage || query.isFetchNextPageError) && (
            <div className="ilist__more">
              <Button busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                Load older
              </Button>
            </div>
          )}
          {query.isFetchNextPageError && <ErrorNotice error={query.error} />}
        </section>
      )}
      {canEdit && (
        <DeclareIncidentDialog
          open={declaring}
          onClose={() => setDeclaring(false)}
          onDeclared={(incident) => {
            setDeclaring(false);
            void navigate(`/incidents/${incident.id}`);
          }}
        />
      )}
    </>
  );
}
