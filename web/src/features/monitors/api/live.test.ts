import type { CheckResult, MonitorList, MonitorSummary } from '@pagewatch/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { incidentKeys } from '../../incidents/api/keys';
import { monitorKeys } from './keys';
import { applyEvents } from './live';

const summary = (id: number, over: Partial<MonitorSummary> = {}): MonitorSummary => ({
  id,
  status: 'up',
  statusChangedAt: null,
  lastCheck: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  type: 'http',
  name: `m${id}`,
  target: 'https://x.example.com',
  interval: 60,
  tags: [],
  paused: false,
  uptime24h: 100,
  recent: { outcomes: 'u', latencyMs: [10] },
  ...over,
});

const result = (id: number, at: string, over: Partial<CheckResult> = {}): CheckResult => ({
  id,
  monitorId: 1,
  at,
  outcome: 'down',
  latencyMs: null,
  phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
  httpStatus: null,
  errorCode: 'connect_refused',
  errorMessage: 'refused',
  responseSize: null,
  certExpiresAt: null,
  ...over,
});

function clientWith(items: MonitorSummary[]) {
  const client = new QueryClient();
  client.setQueryData<MonitorList>(monitorKeys.list(), {
    items,
    counts: {
      pending: 0,
      up: items.length,
      degraded: 0,
      down: 0,
      paused: 0,
      maintenance: 0,
      regional: 0,
      unknown: 0,
    },
  });
  return client;
}

describe('live updates', () => {
  it('updates the row in place: status, last check and sparkline', () => {
    const other = summary(2);
    const client = clientWith([summary(1), other]);
    applyEvents(client, [
      {
        kind: 'result',
        monitorId: 1,
        status: 'down',
        result: result(5, '2026-01-01T00:01:00.000Z'),
      },
    ]);
    const list = client.getQueryData<MonitorList>(monitorKeys.list());
    expect(list?.items[0]).toMatchObject({
      status: 'down',
      lastCheck: { outcome: 'down', errorCode: 'connect_refused' },
    });
    expect(list?.items[0]?.recent).toEqual({ outcomes: 'ud', latencyMs: [10, null] });
    // Untouched rows keep their identity, so memoised rows do not re-render.
    expect(list?.items[1]).toBe(other);
  });

  it('ignores a replayed result it already has', () => {
    const client = clientWith([summary(1)]);
    const event = {
      kind: 'result' as const,
      monitorId: 1,
      status: 'down' as const,
      result: result(5, '2026-01-01T00:01:00.000Z'),
    };
    applyEvents(client, [event]);
    applyEvents(client, [event]);
    expect(client.getQueryData<MonitorList>(monitorKeys.list())?.items[0]?.recent.outcomes).toBe(
      'ud',
    );
  });

  it('applies status flips and refetches the list for a monitor it does not know', () => {
    const client = clientWith([summary(1)]);
    applyEvents(client, [
      {
        kind: 'status',
        monitorId: 1,
        from: 'up',
        to: 'degraded',
        at: '2026-01-01T00:02:00.000Z',
        errorCode: null,
        message: null,
      },
      { kind: 'result', monitorId: 9, status: 'up', result: result(6, '2026-01-01T00:02:00.000Z') },
    ]);
    expect(client.getQueryData<MonitorList>(monitorKeys.list())?.items[0]).toMatchObject({
      status: 'degraded',
      statusChangedAt: '2026-01-01T00:02:00.000Z',
    });
    expect(client.getQueryState(monitorKeys.list())?.isInvalidated).toBe(true);
  });

  it('an incident event marks every incident query stale and leaves the monitor list alone', () => {
    const client = clientWith([summary(1)]);
    client.setQueryData(incidentKeys.forMonitor(1), { pages: [], pageParams: [] });
    client.setQueryData(incidentKeys.detail(7), { id: 7 });
    applyEvents(client, [
      {
        kind: 'incident',
        change: 'created',
        incidentId: 7,
        monitorId: 1,
        monitorIds: [1],
        title: 'm1 is down',
        state: 'investigating',
        severity: 'major',
        automatic: true,
        at: '2026-01-01T00:01:00.000Z',
      },
    ]);
    expect(client.getQueryState(incidentKeys.forMonitor(1))?.isInvalidated).toBe(true);
    expect(client.getQueryState(incidentKeys.detail(7))?.isInvalidated).toBe(true);
    expect(client.getQueryState(monitorKeys.list())?.isInvalidated).toBe(false);
  });
});
