import type { CheckPage, Monitor, MonitorList, ServerEvent } from '@pagewatch/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { incidentKeys } from '../../incidents/api/keys';
import { maintenanceKeys } from '../../maintenance/api/keys';
import { monitorKeys } from './keys';
import { applyRowEvents, lastCheckOf } from './patch-row';
import { invalidateRowPages, patchRowPages } from './rows';

export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'unsupported';

// Connection state as a tiny external store, read with useSyncExternalStore.
let state: LiveState = 'connecting';
const listeners = new Set<() => void>();
function setState(next: LiveState) {
  if (next === state) return;
  state = next;
  listeners.forEach((l) => l());
}
export const liveStore = {
  get: (): LiveState => state,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const FLUSH_MS = 250;

/** Applies a batch of events to the caches in one pass, so 1,000 monitors cost one render per flush. */
export function applyEvents(client: QueryClient, batch: ServerEvent[]) {
  const byMonitor = new Map<number, ServerEvent[]>();
  let refetchList = false;
  let refetchIncidents = false;
  let reset = false;
  // Monitors whose definition changed: their rows, names and pages are read again once for the
  // whole flush (a bulk action's 2,000 are one refetch, not 2,000 cancelled and restarted ones).
  const redefined = new Set<number>();
  for (const event of batch) {
    // Incident lists are few and small: refetching them beats patching every filtered list.
    if (event.kind === 'incident') {
      refetchIncidents = true;
      continue;
    }
    // A window's change reaches the monitors through `status` events; its own list refetches.
    if (event.kind === 'maintenance') {
      void client.invalidateQueries({ queryKey: maintenanceKeys.all });
      continue;
    }
    // Status pages have their own screens; the monitor views don't show them.
    if (event.kind === 'status-page') continue;
    if (event.kind === 'monitor' || event.kind === 'monitors' || event.kind === 'reset') {
      // Incidents show monitor names, and a deleted monitor leaves its incidents behind.
      refetchIncidents = true;
      refetchList = true;
      if (event.kind === 'reset') reset = true;
      else if (event.kind === 'monitor') redefined.add(event.monitorId);
      else for (const id of event.monitorIds) redefined.add(id);
      continue;
    }
    // A flip changes the 24 h uptime too, which only the server computes.
    if (event.kind === 'status') refetchList = true;
    const list = byMonitor.get(event.monitorId) ?? [];
    list.push(event);
    byMonitor.set(event.monitorId, list);
  }

  if (byMonitor.size > 0) {
    client.setQueryData<MonitorList>(monitorKeys.list(), (list) => {
      if (!list) return list;
      let seen = 0;
      const items = list.items.map((item) => {
        const events = byMonitor.get(item.id);
        if (!events) return item;
        seen++;
        return applyRowEvents(item, events);
      });
      if (seen < byMonitor.size) refetchList = true;
      return { ...list, items };
    });
    patchRowPages(client, byMonitor);
  }

  for (const [id, events] of byMonitor) patchMonitor(client, id, events);
  if (reset || redefined.size > 0) {
    invalidateRowPages(client);
    void client.invalidateQueries({ queryKey: monitorKeys.names() });
  }
  if (reset) void client.invalidateQueries({ queryKey: monitorKeys.all });
  else if (redefined.size > 0) {
    // One pass over the cache for every page of a changed monitor that is loaded.
    const detail = monitorKeys.detail(0);
    void client.invalidateQueries({
      predicate: (q) =>
        q.queryKey.length === detail.length &&
        q.queryKey[0] === detail[0] &&
        q.queryKey[1] === detail[1] &&
        redefined.has(q.queryKey[2] as number),
    });
  }
  if (refetchList) void client.invalidateQueries({ queryKey: monitorKeys.list() });
  if (refetchIncidents) void client.invalidateQueries({ queryKey: incidentKeys.all });
}

/** Updates one monitor's page: header status, newest checks, and a refetch of its stats. */
function patchMonitor(client: QueryClient, id: number, events: ServerEvent[]) {
  for (const event of events) {
    if (event.kind === 'result') {
      client.setQueryData<Monitor>(monitorKeys.detail(id), (m) => {
        if (!m) return m;
        const next: Monitor = {
          ...m,
          status: event.status,
          lastCheck: lastCheckOf(event.result),
          // Older servers send no details: keep what the page has until the next fetch.
          lastDetails: event.details === undefined ? m.lastDetails : event.details,
        };
        // On a push monitor every result but a missed deadline is a ping that arrived.
        return next.type === 'push' && event.result.errorCode !== 'heartbeat_missed'
          ? { ...next, lastPingAt: event.result.at }
          : next;
      });
      client.setQueryData<InfiniteData<CheckPage, number | null>>(
        monitorKeys.checks(id),
        (data) => {
          const first = data?.pages[0];
          if (!data || !first) return data;
          if (first.items.some((c) => c.id === event.result.id)) return data;
          const pages = [
            { ...first, items: [event.result, ...first.items] },
            ...data.pages.slice(1),
          ];
          return { ...data, pages };
        },
      );
    } else if (event.kind === 'status') {
      client.setQueryData<Monitor>(monitorKeys.detail(id), (m) =>
        m ? { ...m, status: event.to, statusChangedAt: event.at } : m,
      );
    }
  }
  void client.invalidateQueries({ queryKey: monitorKeys.statsAll(id) });
  void client.invalidateQueries({ queryKey: monitorKeys.browserRuns(id) });
  // A result relayed from another process comes without its details (certificate, assertion
  // results): an open monitor page reads them again so its panels follow the latest check.
  if (events.some((e) => e.kind === 'result' && e.details === undefined)) {
    void client.invalidateQueries({ queryKey: monitorKeys.detail(id), exact: true });
  }
}

function parse(data: unknown): ServerEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== 'object' || value === null || !('kind' in value)) return null;
    return value as ServerEvent;
  } catch {
    return null;
  }
}

const KINDS = ['result', 'status', 'monitor', 'incident', 'maintenance', 'reset'] as const;

/** Opens the app's one EventSource and keeps the query caches current; returns a stop function. */
export function startLiveUpdates(client: QueryClient): () => void {
  if (typeof EventSource === 'undefined') {
    setState('unsupported');
    return () => undefined;
  }
  let source: EventSource | null = null;
  let queue: ServerEvent[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = 1000;
  let hadError = false;
  let stopped = false;

  const onMessage = (message: MessageEvent) => {
    const event = parse(message.data);
    if (!event) return;
    queue.push(event);
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      const batch = queue;
      queue = [];
      applyEvents(client, batch);
    }, FLUSH_MS);
  };

  const connect = () => {
    if (stopped) return;
    source = new EventSource('/api/v1/events');
    for (const kind of KINDS) source.addEventListener(kind, onMessage);
    source.onmessage = onMessage;
    source.onopen = () => {
      setState('open');
      retryDelay = 1000;
      // Events may have been missed while away (e.g. the server restarted): refresh the list once.
      if (hadError) {
        void client.invalidateQueries({ queryKey: monitorKeys.list() });
        void client.invalidateQueries({ queryKey: monitorKeys.rowsAll });
        void client.invalidateQueries({ queryKey: incidentKeys.all });
      }
      hadError = false;
    };
    source.onerror = () => {
      hadError = true;
      setState('reconnecting');
      // The browser retries by itself unless the response was not an event stream; then we do.
      if (source?.readyState === EventSource.CLOSED) {
        source.close();
        retryTimer = setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30_000);
      }
    };
  };

  connect();
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(flushTimer);
    clearTimeout(retryTimer);
  };
}
