import { Monitor, MonitorLocations } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { downRun } from '../support/factories.js';
import { post } from '../support/http.js';
import { openEventStream } from '../support/sse.js';

const INTERVAL_S = 10;
const I = INTERVAL_S * 1000;

/**
 * REGIONAL end to end (ADR 58): the real scheduler checks a real loopback target as location
 * `local`; a second location, `eu`, reports through the same ingest a probe's batches take and
 * cannot reach the target. One failing location of two is REGIONAL, never a global DOWN; when
 * the target fails for `local` too, both fail and the monitor is DOWN.
 */
describe.each(engines)('REGIONAL from live checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let feeding: NodeJS.Timeout | null = null;

  beforeAll(async () => {
    target = await startTargetServer();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    await t.database.db
      .insertInto('locations')
      .values({ id: 'eu', name: 'EU West', created_at: Date.now() })
      .execute();
  });
  afterAll(async () => {
    if (feeding) clearInterval(feeding);
    await t?.stop();
    await target?.close();
  });

  /** `eu` fails every round, as a probe cut off from the target would report. */
  function feedFailuresFromEu(monitorId: number): Set<number> {
    const rounds = new Set<number>();
    const feed = () => {
      const now = Date.now();
      const round = roundAt(monitorId, I, now);
      rounds.add(round);
      const item = {
        monitorId,
        roundAt: new Date(dueOf(monitorId, I, round)).toISOString(),
        startedAt: new Date(now).toISOString(),
        result: downRun(),
      };
      // A round fed twice is counted once (the unique round key): a probe's retried batch.
      void t.locations.record('eu', [item], { replayed: false });
    };
    feed();
    feeding = setInterval(feed, 1000);
    return rounds;
  }

  it('is REGIONAL within 2 rounds with one location failing, DOWN once both fail', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Checkout',
        url: `${target.url}/ok`,
        retries: 0,
        interval: INTERVAL_S,
        timeout: 2,
      });
      const id = Monitor.parse(created.body).id;
      await stream.waitFor((e) => e.kind === 'status' && e.monitorId === id && e.to === 'up');
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${id}/locations`,
        headers: t.owner.headers,
        payload: { locations: ['local', 'eu'] },
      });
      expect(put.statusCode).toBe(200);

      const fed = feedFailuresFromEu(id);
      const first = Math.min(...fed);
      const regional = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'regional',
        4 * I,
      );
      if (regional.event.kind !== 'status') throw new Error('unreachable');
      // Within 2 rounds of the first failing one, counted on the monitor's own round grid.
      expect(roundAt(id, I, Date.parse(regional.event.at)) - first).toBeLessThanOrEqual(1);
      expect(regional.event.message).toBe('Failing from EU West: Connection refused');
      const figures = MonitorLocations.parse(
        (
          await t.inject({ url: `/api/v1/monitors/${id}/locations`, headers: t.owner.headers })
        ).json(),
      );
      expect(figures.failing).toEqual(['EU West']);
      expect(figures.locations.map((l) => [l.id, l.status])).toEqual([
        ['eu', 'down'],
        ['local', 'up'],
      ]);
      // Two more rounds of local up and eu down: still REGIONAL, never a global DOWN.
      const later = roundAt(id, I, Date.now()) + 2;
      await stream.waitFor(
        (e) =>
          e.kind === 'result' &&
          e.monitorId === id &&
          e.result.outcome === 'up' &&
          roundAt(id, I, Date.parse(e.result.at)) >= later,
        4 * I,
      );
      const downs = () =>
        stream.events.filter(
          (e) => e.event.kind === 'status' && e.event.monitorId === id && e.event.to === 'down',
        );
      expect(downs()).toEqual([]);

      // The target fails for local too: every location fails.
      target.setMode('down');
      const brokenRound = roundAt(id, I, Date.now());
      const down = await stream.waitFor(
        (e) => e.kind === 'status' && e.monitorId === id && e.to === 'down',
        4 * I,
      );
      if (down.event.kind !== 'status') throw new Error('unreachable');
      // DOWN in the first round local checked after the target broke: within interval + 10 s.
      expect(roundAt(id, I, Date.parse(down.event.at)) - brokenRound).toBeLessThanOrEqual(1);
      expect(down.event.from).toBe('regional');
    } finally {
      stream.close();
      target.setMode('normal');
    }
  }, 120_000);
});
