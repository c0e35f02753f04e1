import { LocationChoices, LocationLatency, Monitor, MonitorLocations } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';
import { post } from '../support/http.js';

/** Choosing a monitor's locations and quorum over the API, and its per-location figures. */
describe.each(engines)('monitor locations API on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ engine, listen: true });
    for (const [id, name] of [
      ['eu', 'EU West'],
      ['us', 'US <East>'],
    ]) {
      await t.database.db
        .insertInto('locations')
        .values({ id: id!, name: name!, created_at: Date.now() })
        .execute();
    }
  });
  afterAll(async () => t?.stop());

  const put = (id: number, payload: object) =>
    t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${id}/locations`,
      headers: t.owner.headers,
      payload,
    });
  const get = async (url: string) =>
    (await t.inject({ url, headers: t.owner.headers })).json<unknown>();

  it('offers every location, local first', async () => {
    const choices = LocationChoices.parse(await get('/api/v1/monitors/location-choices'));
    expect(choices.items.map((c) => c.id)).toEqual(['local', 'eu', 'us']);
  });

  it('refuses unknown locations, a quorum above the locations and remote push monitors', async () => {
    const id = Monitor.parse((await post(t, '/api/v1/monitors', monitorInput())).body).id;
    const unknown = await put(id, { locations: ['local', 'mars'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      errors: [{ path: 'locations', message: 'No location has id mars' }],
    });
    const big = await put(id, { locations: ['local', 'eu'], quorum: 3 });
    expect(big.json()).toMatchObject({ errors: [{ path: 'quorum' }] });
    const none = await put(id, { locations: [] });
    expect(none.statusCode).toBe(400);
    const push = Monitor.parse(
      (await post(t, '/api/v1/monitors', { type: 'push', name: 'Nightly job', interval: 60 })).body,
    ).id;
    const remote = await put(push, { locations: ['eu'] });
    expect(remote.json()).toMatchObject({ errors: [{ path: 'locations' }] });
    expect((await put(999_999, { locations: ['local'] })).statusCode).toBe(404);
  });

  it('shows each location’s verdict, 24 h uptime and latency, and the failing ones by name', async () => {
    const id = Monitor.parse(
      (await post(t, '/api/v1/monitors', monitorInput({ interval: 60 }))).body,
    ).id;
    const chosen = await put(id, { locations: ['us', 'eu', 'local'], quorum: 2 });
    expect(chosen.statusCode).toBe(200);
    const before = MonitorLocations.parse(chosen.json());
    expect(before).toMatchObject({ quorum: 2, k: 2, failing: [] });
    expect(before.locations.map((l) => [l.id, l.status])).toEqual([
      ['eu', 'none'],
      ['local', 'none'],
      ['us', 'none'],
    ]);
    const now = Date.now();
    const item = (down: boolean) => ({
      monitorId: id,
      roundAt: new Date(dueOf(id, 60_000, roundAt(id, 60_000, now))).toISOString(),
      startedAt: new Date(now).toISOString(),
      result: down ? downRun() : checkRun({ latencyMs: 40 }),
    });
    await t.locations.record('eu', [item(false)], { replayed: false });
    await t.locations.record('us', [item(true)], { replayed: false });
    const after = MonitorLocations.parse(await get(`/api/v1/monitors/${id}/locations`));
    expect(after.failing).toEqual(['US <East>']);
    expect(after.locations.find((l) => l.id === 'eu')).toMatchObject({
      name: 'EU West',
      status: 'up',
      latencyMs: 40,
      uptime24h: 100,
      checks24h: 1,
    });
    expect(after.locations.find((l) => l.id === 'us')).toMatchObject({
      status: 'down',
      errorMessage: 'Connection refused',
      uptime24h: 0,
    });
    const monitor = Monitor.parse(await get(`/api/v1/monitors/${id}`));
    expect(monitor.status).toBe('regional');
    const latency = LocationLatency.parse(await get(`/api/v1/monitors/${id}/locations/latency`));
    expect(latency.series.map((s) => [s.id, s.points.map((p) => p[1])])).toEqual([
      ['eu', [40]],
      ['us', [null]],
    ]);
    // Back to local alone: the default, no rows left.
    expect((await put(id, { locations: ['local'] })).statusCode).toBe(200);
    const links = await t.database.db
      .selectFrom('monitor_locations')
      .select('location_id')
      .where('monitor_id', '=', id)
      .execute();
    expect(links).toEqual([]);
  });
});
