import '../../styles/bulk.css';
import type { MonitorStatus, MonitorType } from '@pagewatch/contract';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { MonitorBulkResult } from '@pagewatch/contract';
import { Button, ButtonLink } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { LoadingBlock } from '../../components/ui/Skeleton';
import { ErrorNotice } from '../../components/ui/Notice';
import { useCan } from '../../features/auth/api/session';
import { monitorRowsQuery } from '../../features/monitors/api/rows';
import { BulkBar, BulkOutcome } from '../../features/monitors/components/BulkBar';
import { DashboardToolbar } from '../../features/monitors/components/DashboardToolbar';
import { MonitorTable } from '../../features/monitors/components/MonitorTable';
import { StatusChips } from '../../features/monitors/components/StatusChips';
import { statusMeta } from '../../features/monitors/components/status';
import { kindDisplays } from '../../features/monitors/kinds/display';
import { sortOptions, type SortKey } from '../../features/monitors/dashboard-filter';
import { rememberDashboard } from '../../features/monitors/dashboard-return';
import { useHeldOrder, useListHold } from '../../features/monitors/held-order';
import { toServerSelection, useRowSelection } from '../../features/monitors/selection';
import { plural } from '../../lib/format';
import { UnannouncedBanner } from '../../features/status-pages/components/UnannouncedBanner';

const isStatus = (v: string | null): v is MonitorStatus => v !== null && v in statusMeta;
const isType = (v: string | null): v is MonitorType => v !== null && v in kindDisplays;
const isSort = (v: string | null): v is SortKey => sortOptions.some((o) => o.value === v);

/** Filters live in the URL so a filtered view can be bookmarked and shared. */
function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const sortParam = params.get('sort');
  const typeParam = params.get('type');
  const filter = {
    status: isStatus(statusParam) ? statusParam : null,
    tag: params.get('tag'),
    type: isType(typeParam) ? typeParam : null,
    query: params.get('q') ?? '',
    sort: isSort(sortParam) ? sortParam : ('status' as SortKey),
  };
  const set = useCallback(
    (key: 'status' | 'tag' | 'type' | 'q' | 'sort', value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === null || value === '' || (key === 'sort' && value === 'status'))
            next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clear = useCallback(() => setParams({}, { replace: true }), [setParams]);
  return { filter, set, clear };
}

/** Typing asks the server once the person pauses, not on every key. */
const SEARCH_DEBOUNCE_MS = 250;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The sticky filters' height, as `--dash-sticky-h`: the column headers stick right below. */
function useStickyHeight() {
  const listRef = useRef<HTMLElement>(null);
  const stickyRef = useCallback((sticky: HTMLDivElement | null) => {
    if (!sticky || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      listRef.current?.style.setProperty('--dash-sticky-h', `${sticky.offsetHeight}px`),
    );
    observer.observe(sticky);
    return () => observer.disconnect();
  }, []);
  return { listRef, stickyRef };
}

function Dashboard() {
  const { filter, set, clear } = useFilterParams();
  const query = useDebounced(filter.query.trim(), SEARCH_DEBOUNCE_MS);
  const { status, tag, type, sort } = filter;
  const asked = useMemo(
    () => ({ status, tag, type, sort, query }),
    [status, tag, type, sort, query],
  );
  const rows = useInfiniteQuery({ ...monitorRowsQuery(asked), placeholderData: keepPreviousData });
  const { data, error, isPending, refetch, isRefetching, hasNextPage, isFetchingNextPage } = rows;
  const { fetchNextPage } = rows;
  const canEdit = useCan('editor');
  const first = data?.pages[0];
  const loaded = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  // Rows keep their places while pointed at or scrolled; the server's order returns after.
  const { held, handlers } = useListHold();
  const shown = useHeldOrder(loaded, held);
  const resetKey = `${status}|${tag}|${type}|${query}|${sort}`;
  const picking = useRowSelection(shown, resetKey);
  const { sel } = picking;
  const [outcome, setOutcome] = useState<MonitorBulkResult | null>(null);
  const loadedTicked = useMemo(
    () => (sel.allMatching ? shown.length : shown.filter((m) => sel.ids.has(m.id)).length),
    [sel, shown],
  );
  const tableSelection = useMemo(
    () => ({
      isSelected: picking.isSelected,
      toggle: picking.toggle,
      selectLoaded: picking.selectLoaded,
      loadedTicked,
    }),
    [picking, loadedTicked],
  );
  const { listRef, stickyRef } = useStickyHeight();
  const { search } = useLocation();
  useEffect(() => rememberDashboard(search), [search]);
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const total = first?.all ?? 0;
  const down = first?.down ?? 0;
  const matching = first?.total ?? 0;
  const filtered = status !== null || tag !== null || type !== null || query !== '';

  return (
    <>
      <title>{down > 0 ? `(${down} down) Monitors · Pagewatch` : 'Monitors · Pagewatch'}</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Monitors</h1>
          {first && total > 0 && (
            <p className="page-sub">
              {plural(total, 'monitor')}
              {down > 0 && <span className="text-down"> · {down} down</span>}
            </p>
          )}
        </div>
        {canEdit && (
          <ButtonLink to="/monitors/new" variant="primary" icon="plus">
            New monitor
          </ButtonLink>
        )}
      </div>

      <UnannouncedBanner className="section" />

      {isPending && <LoadingBlock label="Loading monitors…" rows={6} />}

      {error && (
        <ErrorNotice
          error={error}
          className="section"
          action={
            <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      )}

      {first && total === 0 && (
        <EmptyState
          title="No monitors yet"
          action={
            canEdit && (
              <ButtonLink to="/monitors/new" variant="primary" icon="plus">
                Create your first monitor
              </ButtonLink>
            )
          }
        >
          {canEdit
            ? 'Add a URL and Pagewatch checks it on a schedule, records how fast each phase was and tells you the moment it stops being delivered.'
            : 'Monitors that editors add show up here with their live status. As a viewer you can see them but not change them.'}
        </EmptyState>
      )}

      {first && total > 0 && (
        <section aria-label="Monitor list" className="section dash-list" ref={listRef}>
          <div className="dash-sticky" ref={stickyRef}>
            <StatusChips
              counts={first.counts}
              total={Object.values(first.counts).reduce((a, b) => a + b, 0)}
              value={filter.status}
              onChange={(s) => set('status', s)}
            />
            <DashboardToolbar
              query={filter.query}
              tag={filter.tag}
              type={filter.type}
              types={first.types}
              onType={(t) => set('type', t)}
              sort={filter.sort}
              tags={first.tags}
              onQuery={(q) => set('q', q)}
              onTag={(t) => set('tag', t)}
              onSort={(s) => set('sort', s)}
            />
            {canEdit && (
              <BulkBar
                count={sel.ids.size}
                allMatching={sel.allMatching}
                matching={matching}
                selection={() => toServerSelection(sel, { status, tag, type, query, sort })}
                onSelectAll={picking.selectAllMatching}
                onClear={picking.clear}
                onDone={(result) => {
                  picking.clear();
                  setOutcome(result);
                }}
              />
            )}
          </div>
          {outcome && <BulkOutcome result={outcome} onClose={() => setOutcome(null)} />}
          <p className="visually-hidden" role="status">
            {filtered ? `${plural(matching, 'monitor')} match the filters` : ''}
          </p>
          {shown.length > 0 ? (
            <div {...handlers}>
              <MonitorTable
                monitors={shown}
                total={matching}
                resetKey={resetKey}
                loadMore={hasNextPage ? loadMore : undefined}
                loadingMore={isFetchingNextPage}
                selection={canEdit ? tableSelection : undefined}
              />
            </div>
          ) : (
            <EmptyState
              icon="search"
              title="No monitors match"
              action={<Button onClick={clear}>Clear filters</Button>}
            >
              Nothing matches these filters. Try another status, tag, type or search.
            </EmptyState>
          )}
        </section>
      )}
    </>
  );
}

export { Dashboard as Component };
