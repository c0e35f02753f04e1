import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckOutcome } from '@pagewatch/contract';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { EventHub } from '../../src/lib/event-hub.js';
import { DAY_MS, DayHistory, gridDay } from '../../src/status-pages/day-history.js';
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

describe.each(engines)('the day history of status page bars on %s', (engine) => {
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
    const history = new DayHistory(repos.statusPublic, new EventHub());
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
    const history = new DayHistory(repos.statusPublic, new EventHub());
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
    const history = new DayHistory(repos.statusPublic, hub, { maxMonitors: 1 });
    const first = (await history.grids([a], TODAY)).get(a)!;
    first.fill(7);
    expect(gridDay((await history.grids([a], TODAY)).get(a)!, index(5)).checks).toBe(0);
    await history.grids([a, b], TODAY);
    expect(history.size).toBe(1);
    hub.publish({ kind: 'monitor', change: 'deleted', monitorId: b });
    expect(history.size).toBe(0);
    // A monitor without any rollups still gets its 90 empty days.
    expect(gridDay((await history.grids([b + 1000], TODAY)).get(b + 1000)!, 0).checks).toBe(0);
  });
});
