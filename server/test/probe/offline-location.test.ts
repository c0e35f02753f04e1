import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { sweepOfflineLocations } from '../../src/jobs/offline-locations.js';
import { EventHub } from '../../src/lib/event-hub.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

/**
 * A location whose probes all stop sending heartbeats: one incident and one alert per channel
 * for the location, however many sweeps (and processes) see it; its return resolves it.
 */
describe.each(engines)('an offline location on %s', (engine) => {
  let t: TestApp;
  let now = Date.now();
  let deps: ServiceDeps;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    deps = {
      repos: repositories(t.database),
      clock: { now: () => now },
      hub: new EventHub(),
      publicUrl: null,
    } as unknown as ServiceDeps;
  });
  afterAll(async () => t?.stop());

  it('raises one incident and one alert per channel, and resolves it on return', async () => {
    for (const name of ['first', 'second']) {
      const c = await t.inject({
        method: 'POST',
        url: '/api/v1/notification-channels',
        payload: { kind: 'webhook', name, isDefault: true, config: { url: 'http://127.0.0.1:9/' } },
      });
      expect(c.statusCode).toBe(201);
    }
    const loc = await t.inject({
      method: 'POST',
      url: '/api/v1/locations',
      payload: { name: 'Tokyo' },
    });
    const id = loc.json().id as string;
    for (const name of ['tyo-1', 'tyo-2']) {
      const p = await t.inject({
        method: 'POST',
        url: `/api/v1/locations/${id}/probes`,
        payload: { name },
      });
      await deps.repos.locations.heartbeat(
        p.json().probe.id,
        {
          version: 't',
          host: null,
          clockOffsetMs: 0,
          load: 0,
          latenessP99Ms: null,
          spoolDepth: 0,
          spoolDropped: 0,
        },
        now,
      );
    }
    const deliveries = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from deliveries`.execute(t.database.db))
          .rows[0]!.n,
      );
    const before = await deliveries();
    now += 20_000;
    await sweepOfflineLocations(deps);
    expect((await t.inject('/api/v1/incidents')).json().items ?? []).toHaveLength(0);
    now += 15_000;
    await Promise.all([sweepOfflineLocations(deps), sweepOfflineLocations(deps)]);
    await sweepOfflineLocations(deps);
    const incidents = await sql<{
      id: number;
      title: string;
      resolved_at: number | null;
    }>`select id, title, resolved_at from incidents`.execute(t.database.db);
    expect(incidents.rows).toHaveLength(1);
    expect(incidents.rows[0]!.title).toBe('Location "Tokyo" is offline');
    expect((await deliveries()) - before).toBe(2);
    const view = (await t.inject('/api/v1/locations'))
      .json()
      .items.find((l: { id: string }) => l.id === id);
    expect(view.online).toBe(false);

    const probes = await deps.repos.locations.probes(id);
    await deps.repos.locations.heartbeat(
      probes[0]!.id,
      {
        version: 't',
        host: null,
        clockOffsetMs: 0,
        load: 0,
        latenessP99Ms: null,
        spoolDepth: 0,
        spoolDropped: 0,
      },
      now,
    );
    await sweepOfflineLocations(deps);
    const after = await sql<{
      resolved_at: number | null;
    }>`select resolved_at from incidents`.execute(t.database.db);
    expect(after.rows[0]!.resolved_at).not.toBeNull();
    expect((await deps.repos.locations.find(id))!.offlineSince).toBeNull();
  });
});
