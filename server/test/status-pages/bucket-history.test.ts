import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckOutcome } from '@pagewatch/contract';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { EventHub } from '../../src/lib/event-hub.js';
import { BucketHistory } from '../../src/status-pages/bucket-history.js';
import {
  DAY_MS,
  gridDay,
  gridHour,
  HOUR_MS,
  pageHistories,
} from '../../src/status-pages/histories.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { toWrite } from '../support/history.js';

const TODAY = Date.UTC(2026, 10, 22);
const noon = (daysAgo: number) => TODAY - daysAgo * DAY_MS + 12 * 3_600_000;
/** Index of a day in the 90-day grid that ends today. */
const index = (daysAgo: number) => 89 - daysAgo;

const check = (monitorId: number, at: number, outcome: CheckOutcome) =>
  toWrite({
    monitorId,
    at,
    outcome,
    latencyUs: 1000,
    phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
  });

describe.each(engines)('the rollups status pages keep in memory on %s', (engine) => {
  let repos: Repositories;
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: number;
  let b: number;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    repos = repositories(handle.database);
    a = (await repos.monitors.insert(monitorInput(), TODAY - 100 * DAY_MS)).id;
    b = (await repos.monitors.insert(monitorInput(), TODAY - 100 * DAY_MS)).id;
    await repos.results.writeBatch([
      check(a, noon(89), 'up'),
      check(a, noon(10), 'down'),
      check(a, noon(10), 'up'),
      check(a, noon(1), 'degraded'),
      check(a, noon(0), 'up'),
      check(b, noon(3), 'up'),
      // Outside the 90 days: never shown.
      check(a, noon(90), 'down'),
    ]);
  });
  afterAll(async () => handle.cleanup());

  it('gives each monitor its 90 days, oldest first, counted from the day rollups', async () => {
    const history = pageHistories(repos.statusPublic, new EventHub()).days;
    const grids = await history.grids([a, b], TODAY);
    const ga = grids.get(a)!;
    expect(gridDay(ga, index(89))).toEqual({ checks: 1, up: 1, degraded: 0, down: 0 });
    expect(gridDay(ga, index(10))).toEqual({ checks: 2, up: 1, degraded: 0, down: 1 });
    expect(gridDay(ga, index(1))).toEqual({ checks: 1, up: 0, degraded: 1, down: 0 });
    expect(gridDay(ga, index(0))).toEqual({ checks: 1, up: 1, degraded: 0, down: 0 });
    expect(gridDay(ga, index(5))).toEqual({ checks: 0, up: 0, degraded: 0, down: 0 });
    const total = Array.from({ length: 90 }, (_, i) => gridDay(ga, i).checks);
    expect(total.reduce((x, y) => x + y)).toBe(5);
    expect(gridDay(grids.get(b)!, index(3)).checks).toBe(1);
  });

  it('reads finished days once per day, but yesterday and today on every call', async () => {
    const history = pageHistories(repos.statusPublic, new EventHub()).days;
    await history.grids([a], TODAY);
    expect(history.size).toBe(1);
    await repos.results.writeBatch([
      check(a, noon(10), 'down'),
      check(a, noon(1), 'down'),
      check(a, noon(0), 'down'),
    ]);
    const later = (await history.grids([a], TODAY)).get(a)!;
    // Days before yesterday are final, so the copy kept this morning is what shows…
    expect(gridDay(later, index(10)).checks).toBe(2);
    // …while a result landing just after midnight still counts for yesterday, and today is live.
    expect(gridDay(later, index(1))).toEqual({ checks: 2, up: 0, degraded: 1, down: 1 });
    expect(gridDay(later, index(0))).toEqual({ checks: 2, up: 1, degraded: 0, down: 1 });

    // The next day everything is read again, one day further on.
    const tomorrow = (await history.grids([a], TODAY + DAY_MS)).get(a)!;
    expect(gridDay(tomorrow, index(10) - 1).checks).toBe(3);
    expect(gridDay(tomorrow, index(0) - 1).checks).toBe(2);
  });

  it('hands out copies, forgets deleted monitors and keeps at most its bound', async () => {
    const hub = new EventHub();
    const history = new BucketHistory(
      {
        bucketMs: DAY_MS,
        buckets: 90,
        fields: 1,
        read: async (ids, from, to) =>
          (await repos.statusPublic.days(ids, from, to)).map((r) => ({
            monitorId: r.monitorId,
            bucket: r.day,
            values: [r.checks],
          })),
        maxMonitors: 1,
      },
      hub,
    );
    const first = (await history.grids([a], TODAY)).get(a)!;
    first.fill(7);
    expect((await history.grids([a], TODAY)).get(a)![index(5)]).toBe(0);
    await history.grids([a, b], TODAY);
    expect(history.size).toBe(1);
    hub.publish({ kind: 'monitor', change: 'deleted', monitorId: b });
    expect(history.size).toBe(0);
    // A monitor without any rollups still gets its 90 empty days.
    expect((await history.grids([b + 1000], TODAY)).get(b + 1000)![0]).toBe(0);
  });

  it('keeps the finished hours of the response time chart the same way', async () => {
    const hours = pageHistories(repos.statusPublic, new EventHub()).hours;
    const thisHour = TODAY + 10 * HOUR_MS;
    const at = (hoursAgo: number) => thisHour - hoursAgo * HOUR_MS + 60_000;
    const timed = (hoursAgo: number, ms: number) => ({
      ...check(b, at(hoursAgo), 'up'),
      run: { ...check(b, 0, 'up').run, latencyMs: ms },
    });
    await repos.results.writeBatch([timed(23, 100), timed(23, 300), timed(5, 50), timed(24, 999)]);
    const grid = (await hours.grids([b], thisHour)).get(b)!;
    expect(gridHour(grid, 0)).toEqual({ sumUs: 400_000, count: 2 });
    expect(gridHour(grid, 18)).toEqual({ sumUs: 50_000, count: 1 });
    await repos.results.writeBatch([timed(5, 150), timed(0, 20)]);
    const again = (await hours.grids([b], thisHour)).get(b)!;
    expect(gridHour(again, 18)).toEqual({ sumUs: 50_000, count: 1 });
    expect(gridHour(again, 23)).toEqual({ sumUs: 20_000, count: 1 });
    const next = (await hours.grids([b], thisHour + HOUR_MS)).get(b)!;
    expect(gridHour(next, 17)).toEqual({ sumUs: 200_000, count: 2 });
  });
});
