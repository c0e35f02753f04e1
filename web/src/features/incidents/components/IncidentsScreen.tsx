import '../../../styles/bulk.css';
import type { IncidentBulkResult, IncidentListFilter } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { ErrorNotice } from '../../../components/ui/Notice';
import { Notice } from '../../../components/ui/Notice';
import { plural } from '../../../lib/format';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { useCan } from '../../auth/api/session';
import { incidentListQuery, type IncidentFilter } from '../api/queries';
import { BulkResolveDialog } from './BulkResolveDialog';
import { IncidentFilters, stateOptions, type IncidentFilterParams } from './IncidentFilters';
import { DeclareIncidentDialog } from './DeclareIncidentDialog';
import { IncidentList } from './IncidentList';

const isFilter = (v: string | null): v is IncidentListFilter =>
  stateOptions.some((f) => f.value === v);

const emptyText: Record<IncidentListFilter, string> = {
  all: 'Pagewatch opens an incident when a monitor goes down and resolves it when the monitor is back. Declare one by hand for anything else people should know about.',
  open: 'Nothing is going on right now.',
  resolved: 'No incident has been resolved yet.',
  investigating: 'No incident is being investigated.',
  identified: 'No open incident has its cause identified.',
  monitoring: 'No incident is being monitored after a fix.',
};

/** Every incident, open ones first; the filter lives in the URL so a view can be shared. */
export function IncidentsScreen() {
  const { params, set, filter } = useIncidentFilter();
  const state = params.state;
  const query = useInfiniteQuery(incidentListQuery(filter));
  const incidents = query.data?.pages.flatMap((p) => p.items);
  const canEdit = useCan('editor');
  const navigate = useNavigate();
  const [declaring, setDeclaring] = useState(false);
  const open = incidents?.filter((i) => i.resolvedAt === null).length ?? 0;
  const filtered =
    params.q !== '' || params.monitor !== '' || params.from !== '' || params.to !== '';
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [resolving, setResolving] = useState(false);
  const [outcome, setOutcome] = useState<IncidentBulkResult | null>(null);
  const filterKey = JSON.stringify(filter);
  useEffect(() => setSelected(new Set()), [filterKey]);
  const picking = useMemo(
    () => ({
      selected,
      toggle: (id: number) =>
        setSelected((prev) => {
          const next = new Set(prev);
          if (!next.delete(id)) next.add(id);
          return next;
        }),
    }),
    [selected],
  );
  const openShown = incidents?.filter((i) => i.resolvedAt === null) ?? [];

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
      <IncidentFilters value={params} onChange={set} />
      {canEdit && openShown.length > 0 && (
        <div className="bulk ibulk" role="region" aria-label="Bulk actions">
          <p className="bulk__count" aria-live="polite">
            {selected.size === 0 ? (
              // As on the dashboard: what the bar is for, not "0 selected".
              <span className="muted">Tick incidents to resolve many at once, or</span>
            ) : (
              <>
                <strong>{selected.size}</strong> selected
              </>
            )}
            <Button
              size="sm"
              variant="ghost"
              onClick={() =>
                setSelected(selected.size > 0 ? new Set() : new Set(openShown.map((i) => i.id)))
              }
            >
              {selected.size > 0 ? 'Clear' : `Select all ${openShown.length} open shown`}
            </Button>
          </p>
          <Button
            size="sm"
            icon="checkCircle"
            disabled={selected.size === 0}
            onClick={() => setResolving(true)}
          >
            Resolve…
          </Button>
        </div>
      )}
      {outcome && (
        <Notice
          live
          tone={outcome.notFound.length + outcome.alreadyResolved.length > 0 ? 'warning' : 'info'}
          title={`Resolved ${plural(outcome.resolved.length, 'incident')}.`}
          action={
            <Button size="sm" variant="ghost" onClick={() => setOutcome(null)}>
              Dismiss
            </Button>
          }
        >
          {outcome.alreadyResolved.length > 0 &&
            `${plural(outcome.alreadyResolved.length, 'was', 'were')} already resolved. `}
          {outcome.notFound.length > 0 &&
            `${plural(outcome.notFound.length, 'incident was', 'incidents were')} deleted by someone else meanwhile.`}
        </Notice>
      )}
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
          title={
            filtered
              ? 'No incidents match'
              : state === 'open'
                ? 'No open incidents'
                : 'No incidents'
          }
        >
          {filtered ? 'Try other words, another monitor or other dates.' : emptyText[state]}
        </EmptyState>
      )}
      {incidents && incidents.length > 0 && (
        <section className="section" aria-label="Incident list">
          <IncidentList
            incidents={incidents}
            label="Incidents, open ones first"
            picking={canEdit ? picking : undefined}
          />
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
        <BulkResolveDialog
          ids={[...selected]}
          open={resolving}
          onClose={() => setResolving(false)}
          onDone={(result) => {
            setResolving(false);
            setSelected(new Set());
            setOutcome(result);
          }}
        />
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

/** Typing asks the server once the person pauses. */
const SEARCH_DEBOUNCE_MS = 250;

/** Start of a local day (YYYY-MM-DD) as an instant; `next` gives the day after's. */
function dayStart(day: string, next = false): string | undefined {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

/** The filters live in the URL, so a filtered list can be shared and survives going back. */
function useIncidentFilter() {
  const [search, setSearch] = useSearchParams();
  const stateParam = search.get('state');
  const params: IncidentFilterParams = {
    state: isFilter(stateParam) ? stateParam : 'all',
    q: search.get('q') ?? '',
    monitor: search.get('monitor') ?? '',
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
  };
  const set = (key: keyof IncidentFilterParams, value: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === '' || (key === 'state' && value === 'all')) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const [q, setQ] = useState(params.q.trim());
  useEffect(() => {
    const timer = setTimeout(() => setQ(params.q.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [params.q]);
  const monitorId = Number(params.monitor);
  const filter: IncidentFilter = {
    state: params.state,
    q: q || undefined,
    monitorId: Number.isInteger(monitorId) && monitorId > 0 ? monitorId : undefined,
    from: params.from ? dayStart(params.from) : undefined,
    to: params.to ? dayStart(params.to, true) : undefined,
  };
  return { params, set, filter };
}
