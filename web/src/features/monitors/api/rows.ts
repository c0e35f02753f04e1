import type { MonitorRowPage, ServerEvent } from '@pagewatch/contract';
import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { narrowed, rowsPath, type DashboardFilter } from '../dashboard-filter';
import { monitorKeys } from './keys';
import { applyRowEvents } from './patch-row';

/** The first page is what a screen shows; later ones arrive as the person scrolls. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 200;

export const monitorRowsQuery = (filter: DashboardFilter) =>
  infiniteQueryOptions({
    queryKey: monitorKeys.rows(filter),
    queryFn: ({ signal, pageParam }) =>
      api<MonitorRowPage>(rowsPath(filter, pageParam ? NEXT_PAGE : FIRST_PAGE, pageParam), {
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Statuses arrive live; the poll only refreshes slow-moving numbers such as 24 h uptime.
    refetchInterval: 60_000,
  });

type Pages = InfiniteData<MonitorRowPage, string | null>;

/**
 * Applies live events to the rows loaded for one filter. Rows not loaded are not tracked; a flip
 * moves the chip counts when they depend only on statuses, else asks for a refetch, as does a
 * flip of a loaded row (its 24 h uptime moved, which only the server computes).
 */
export function patchPages(
  data: Pages,
  filter: DashboardFilter,
  byMonitor: ReadonlyMap<number, readonly ServerEvent[]>,
): { data: Pages; refetch: boolean } {
  let refetch = false;
  const moves: [from: keyof MonitorRowPage['counts'], to: keyof MonitorRowPage['counts']][] = [];
  for (const events of byMonitor.values()) {
    for (const e of events) if (e.kind === 'status' && e.from !== e.to) moves.push([e.from, e.to]);
  }
  if (moves.length > 0 && narrowed(filter)) refetch = true;
  let changed = false;
  const pages = data.pages.map((page) => {
    let items = page.items;
    if (page.items.some((i) => byMonitor.has(i.id))) {
      items = page.items.map((i) => {
        const events = byMonitor.get(i.id);
        if (events?.some((e) => e.kind === 'status')) refetch = true;
        return events ? applyRowEvents(i, events) : i;
      });
    }
    if (items !== page.items) changed = true;
    if (moves.length === 0) return items === page.items ? page : { ...page, items };
    changed = true;
    const counts = { ...page.counts };
    let down = page.down;
    for (const [from, to] of moves) {
      if (!narrowed(filter)) {
        counts[from] = Math.max(0, counts[from] - 1);
        counts[to] += 1;
      }
      down += (to === 'down' ? 1 : 0) - (from === 'down' ? 1 : 0);
    }
    const total = filter.status === null || narrowed(filter) ? page.total : counts[filter.status];
    return { ...page, items, counts, down: Math.max(0, down), total };
  });
  return { data: changed ? { ...data, pages } : data, refetch };
}

// Flips come in bursts when many monitors fail at once: one refetch a second at most.
const REFETCH_AFTER_MS = 1000;
/** How often a refetch put off by a fetch on its way looks again. */
const IDLE_POLL_MS = 250;
const refetching = new Set<string>();

/**
 * Refetches one page set within a second, but never over a fetch on its way: a refetch cancels
 * it, and a next page cancelled each second by a stream of flips would never arrive (the list
 * stopped growing while monitors kept failing). The refetch follows once the page is in.
 */
function refetchSoon(client: QueryClient, queryHash: string, queryKey: readonly unknown[]) {
  if (refetching.has(queryHash)) return;
  refetching.add(queryHash);
  const fire = () => {
    if (client.getQueryCache().get(queryHash)?.state.fetchStatus === 'fetching') {
      setTimeout(fire, IDLE_POLL_MS);
      return;
    }
    refetching.delete(queryHash);
    void client.invalidateQueries({ queryKey, exact: true });
  };
  setTimeout(fire, REFETCH_AFTER_MS);
}

/**
 * Marks every dashboard page set stale after a definition change: at once where nothing is on
 * its way, else as soon as the fetch on its way is in (see refetchSoon).
 */
export function invalidateRowPages(client: QueryClient): void {
  for (const query of client.getQueryCache().findAll({ queryKey: monitorKeys.rowsAll })) {
    if (query.state.fetchStatus === 'fetching')
      refetchSoon(client, query.queryHash, query.queryKey);
    else void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  }
}

/** Patches every dashboard page set in the cache with a batch of events, by monitor. */
export function patchRowPages(
  client: QueryClient,
  byMonitor: ReadonlyMap<number, readonly ServerEvent[]>,
): void {
  for (const query of client.getQueryCache().findAll({ queryKey: monitorKeys.rowsAll })) {
    const filter = query.queryKey[2] as DashboardFilter | undefined;
    const data = query.state.data as Pages | undefined;
    if (!filter || !data) continue;
    const next = patchPages(data, filter, byMonitor);
    if (next.data !== data) {
      // Setting data marks it fresh: a page set already due for a refetch must stay due.
      const due = query.state.isInvalidated;
      client.setQueryData(query.queryKey, next.data);
      if (due && query.state.fetchStatus === 'fetching') {
        refetchSoon(client, query.queryHash, query.queryKey);
      } else if (due) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }
    if (next.refetch) refetchSoon(client, query.queryHash, query.queryKey);
  }
}
