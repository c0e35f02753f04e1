import type { MonitorRow, MonitorRowPage, ServerEvent } from '@pagewatch/contract';
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { rowsPath, type DashboardFilter } from '../dashboard-filter';
import { monitorKeys } from './keys';
import { applyEvents } from './live';
import { FIRST_PAGE, monitorRowsQuery, patchPages } from './rows';

const all: DashboardFilter = { status: null, tag: null, type: null, query: '', sort: 'status' };

const row = (id: number, over: Partial<MonitorRow> = {}): MonitorRow => ({
  id,
  status: 'up',
  statusChangedAt: null,
  lastCheck: null,
  type: 'http',
  name: `m${id}`,
  target: 'https://x.example.com',
  tags: [],
  paused: false,
  uptime24h: 100,
  recent: { outcomes: 'u', latencyMs: [10] },
  ...over,
});

const counts = (up: number, down = 0) => ({
  pending: 0,
  up,
  degraded: 0,
  down,
  paused: 0,
  maintenance: 0,
  regional: 0,
  unknown: 0,
});

function pages(...items: MonitorRow[][]): InfiniteData<MonitorRowPage, string | null> {
  const n = items.flat().length;
  return {
    pageParams: items.map((_, i) => (i === 0 ? null : `c${i}`)),
    pages: items.map((page, i) => ({
      items: page,
      nextCursor: i === items.length - 1 ? null : `c${i + 1}`,
      total: n + 10,
      counts: counts(n + 10),
      all: n + 10,
      down: 0,
      tags: [],
      types: ['http'],
    })),
  };
}

const flip = (monitorId: number, to: 'down' | 'up', from: 'down' | 'up'): ServerEvent => ({
  kind: 'status',
  monitorId,
  from,
  to,
  at: '2026-01-01T00:01:00.000Z',
  errorCode: null,
  message: null,
});

describe('dashboard rows', () => {
  it('asks the server for the filters, trimmed, with the cursor of the next page', () => {
    expect(rowsPath(all, 100, null)).toBe('/monitors/rows?limit=100&sort=status');
    expect(
      rowsPath(
        { status: 'down', tag: 'prod & eu', type: 'tcp', query: '  api ', sort: 'latency' },
        200,
        'abc',
      ),
    ).toBe(
      '/monitors/rows?limit=200&sort=latency&status=down&tag=prod+%26+eu&type=tcp&q=api&cursor=abc',
    );
  });

  it('keys each filter apart and pages by the server cursor', () => {
    const a = monitorRowsQuery(all);
    const b = monitorRowsQuery({ ...all, status: 'down' });
    expect(a.queryKey).not.toEqual(b.queryKey);
    expect(a.queryKey.slice(0, 2)).toEqual(monitorKeys.rowsAll);
    const page = pages([row(1)]).pages[0]!;
    expect(a.getNextPageParam({ ...page, nextCursor: 'next' }, [], null, [])).toBe('next');
    expect(a.getNextPageParam(page, [], null, [])).toBeNull();
    expect(FIRST_PAGE).toBeLessThanOrEqual(500);
  });

  it('patches loaded rows and moves the chip and title counts on a flip', () => {
    const data = pages([row(1), row(2)], [row(3)]);
    const { data: next, refetch } = patchPages(
      data,
      all,
      new Map([
        [3, [flip(3, 'down', 'up')]],
        // Not loaded: only the counts know about it.
        [99, [flip(99, 'down', 'up')]],
      ]),
    );
    // Row 3's uptime moved on the server.
    expect(refetch).toBe(true);
    expect(next.pages[1]!.items[0]).toMatchObject({ id: 3, status: 'down' });
    expect(next.pages[0]!.items).toBe(data.pages[0]!.items);
    expect(next.pages[0]!.counts).toMatchObject({ up: 11, down: 2 });
    expect(next.pages[0]!.down).toBe(2);
    expect(next.pages.flatMap((p) => p.items)).toHaveLength(3);
  });

  it('counts a flip of a row not loaded without asking the server', () => {
    const { data, refetch } = patchPages(
      pages([row(1)]),
      all,
      new Map([[99, [flip(99, 'down', 'up')]]]),
    );
    expect(refetch).toBe(false);
    expect(data.pages[0]!.counts).toMatchObject({ up: 10, down: 1 });
  });

  it('leaves the data as it was when no event concerns it, and keeps a due refetch due', () => {
    const before = pages([row(1)]);
    const result: ServerEvent = {
      kind: 'result',
      monitorId: 99,
      status: 'up',
      result: {
        id: 1,
        monitorId: 99,
        at: '2026-01-01T00:02:00.000Z',
        outcome: 'up',
        latencyMs: 5,
        phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
        httpStatus: 200,
        errorCode: null,
        errorMessage: null,
        responseSize: null,
        certExpiresAt: null,
      },
    };
    expect(patchPages(before, all, new Map([[99, [result]]])).data).toBe(before);
    const client = new QueryClient();
    const key = monitorRowsQuery(all).queryKey;
    client.setQueryData(key, pages([row(1)]));
    void client.invalidateQueries({ queryKey: monitorKeys.rowsAll });
    applyEvents(client, [{ ...result, monitorId: 1 }]);
    expect(client.getQueryData(key)?.pages[0]?.items[0]?.lastCheck?.latencyMs).toBe(5);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it('asks again when the counts depend on a tag, type or text filter', () => {
    const filter = { ...all, tag: 'prod' };
    const { data, refetch } = patchPages(
      pages([row(1)]),
      filter,
      new Map([[42, [flip(42, 'down', 'up')]]]),
    );
    expect(refetch).toBe(true);
    expect(data.pages[0]!.counts).toEqual(counts(11));
    expect(data.pages[0]!.down).toBe(1);
  });

  it('applies live results to every cached page set, and refetches on a definition change', () => {
    const client = new QueryClient();
    client.setQueryData(monitorRowsQuery(all).queryKey, pages([row(1), row(2)]));
    applyEvents(client, [
      {
        kind: 'result',
        monitorId: 2,
        status: 'degraded',
        result: {
          id: 7,
          monitorId: 2,
          at: '2026-01-01T00:02:00.000Z',
          outcome: 'degraded',
          latencyMs: 900,
          phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
          httpStatus: 200,
          errorCode: null,
          errorMessage: null,
          responseSize: null,
          certExpiresAt: null,
        },
      },
    ]);
    const data = client.getQueryData(monitorRowsQuery(all).queryKey);
    expect(data?.pages[0]?.items[1]).toMatchObject({
      status: 'degraded',
      lastCheck: { latencyMs: 900 },
      recent: { outcomes: 'uw' },
    });
    expect(client.getQueryState(monitorRowsQuery(all).queryKey)?.isInvalidated).toBe(false);
    client.setQueryData(monitorKeys.names(), { items: [] });
    applyEvents(client, [{ kind: 'monitor', change: 'updated', monitorId: 2 }]);
    expect(client.getQueryState(monitorRowsQuery(all).queryKey)?.isInvalidated).toBe(true);
    // The pickers' names follow a rename, an addition or a deletion.
    expect(client.getQueryState(monitorKeys.names())?.isInvalidated).toBe(true);
  });

  it('takes a bulk change of many monitors in one pass: one refetch, their pages only', () => {
    const client = new QueryClient();
    const key = monitorRowsQuery(all).queryKey;
    client.setQueryData(key, pages([row(1), row(2), row(3)]));
    for (const id of [1, 2, 3]) client.setQueryData(monitorKeys.detail(id), { id });
    let fetches = 0;
    client.getQueryCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'invalidate') fetches++;
    });
    applyEvents(client, [
      { kind: 'monitors', change: 'updated', monitorIds: [1, 2] },
      { kind: 'monitors', change: 'updated', monitorIds: [500, 501] },
    ]);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    expect(client.getQueryState(monitorKeys.detail(1))?.isInvalidated).toBe(true);
    expect(client.getQueryState(monitorKeys.detail(2))?.isInvalidated).toBe(true);
    expect(client.getQueryState(monitorKeys.detail(3))?.isInvalidated).toBe(false);
    // The rows were marked once for both events, each page once.
    expect(fetches).toBe(3);
  });

  it('lets a next page on its way arrive, then refetches for the flips that came meanwhile', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    try {
      const filter = { ...all, tag: 'green' };
      const [first] = pages([row(1)]).pages;
      const calls: (string | null)[] = [];
      let release = () => {};
      const observer = new InfiniteQueryObserver(client, {
        ...monitorRowsQuery(filter),
        refetchInterval: false,
        queryFn: async ({ pageParam }) => {
          calls.push(pageParam);
          if (pageParam === null) return { ...first!, nextCursor: 'c1' };
          await new Promise<void>((resolve) => (release = resolve));
          return { ...first!, items: [row(2)], nextCursor: null };
        },
      });
      const stop = observer.subscribe(() => undefined);
      await vi.advanceTimersByTimeAsync(0);
      const next = observer.fetchNextPage();
      await vi.advanceTimersByTimeAsync(0);
      // Monitors keep failing while the page is slow to come: one flip a second for five.
      for (let i = 0; i < 5; i += 1) {
        applyEvents(client, [flip(40 + i, 'down', 'up')]);
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(calls).toEqual([null, 'c1']);
      release();
      const done = await next;
      expect(done.data?.pages.flatMap((p) => p.items.map((r) => r.id))).toEqual([1, 2]);
      // Then the flips' refetch, of both pages now loaded.
      await vi.advanceTimersByTimeAsync(500);
      expect(calls.slice(2, 3)).toEqual([null]);
      stop();
    } finally {
      client.clear();
      vi.useRealTimers();
    }
  });
});
