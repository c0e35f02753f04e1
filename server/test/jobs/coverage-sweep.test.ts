import type { ServerEvent } from '@pagewatch/contract';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { dueOf } from '../../src/domain/schedule.js';
import { recordLocationResults } from '../../src/engine/location-results.js';
import { sweepCoverage } from '../../src/jobs/coverage-sweep.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const I = 60_000;
const T0 = Date.UTC(2030, 4, 1, 12, 0, 0);

/**
 * The coverage sweep and the admins' notice (issue 16 item 4, ADR 73) on a real database: a
 * monitor whose locations all fall silent turns UNKNOWN (never DOWN) with a flip naming them
 * and no check recorded; one notice counts it; a location's next result decides it again.
 */
describe.each(engines)('coverage sweep on %s', (engine) => {
  let t: TestApp;
  let now = T0;
  let repos: Repositories;
  const events: ServerEvent[] = [];
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await startTestApp({ engine, clock });
    repos = repositories(t.database);
    t.hub.subscribe(({ event }) => void events.push(event));
  }, 60_000);
  afterAll(async () => t?.stop());

  const sweep = () => sweepCoverage({ repos, clock, hub: t.hub, maintenance: null });
  const count = async (table: 'check_results' | 'status_flips', id: number) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(table)} where monitor_id = ${id}`.execute(
          t.database.db,
        )
      ).rows[0]!.n,
    );
  const statusOf = async (id: number) =>
    (await t.inject(`/api/v1/monitors/${id}`)).json().status as string;

  it('turns a silent monitor unknown once, tells admins once, and recovers', async () => {
    const ids: string[] = [];
    for (const name of ['EU West', 'US East']) {
      const l = await t.inject({ method: 'POST', url: '/api/v1/locations', payload: { name } });
      expect(l.statusCode).toBe(201);
      ids.push(l.json().id as string);
    }
    const [eu, us] = ids as [string, string];
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ interval: 60, retries: 0 }),
    });
    const id = m.json().id as number;
    await sql`insert into monitor_locations (monitor_id, location_id) values (${id}, ${eu}), (${id}, ${us})`.execute(
      t.database.db,
    );
    const R = Math.floor(T0 / I) + 2;
    const due = (r: number) => dueOf(id, I, r);
    const report = (location: string, r: number, down = false) =>
      recordLocationResults(
        { repos, clock, logger: pino({ level: 'silent' }) },
        location,
        [
          {
            monitorId: id,
            roundAt: new Date(due(r)).toISOString(),
            startedAt: new Date(due(r) + 1000).toISOString(),
            result: down ? downRun() : checkRun(),
          },
        ],
        { replayed: false },
      );
    now = due(R) + 2000;
    await report(eu, R);
    await report(us, R, true);
    expect(await statusOf(id)).toBe('regional');
    const checks = await count('check_results', id);
    const flips = await count('status_flips', id);

    // Round R+1 runs and nobody reports: within the grace nothing changes…
    now = due(R + 1) + 25_000;
    expect(await sweep()).toBe(0);
    expect(await statusOf(id)).toBe('regional');
    // …past it the monitor is unknown: a down location gone quiet is no outage.
    now = due(R + 1) + 35_000;
    expect(await sweep()).toBe(1);
    expect(await statusOf(id)).toBe('unknown');
    expect(await sweep()).toBe(0);
    expect(await count('status_flips', id)).toBe(flips + 1);
    // No check ran: no result row, so the bars show a gap.
    expect(await count('check_results', id)).toBe(checks);
    const flip = await sql<{ from_status: string; to_status: string; message: string }>`
      select from_status, to_status, message from status_flips
      where monitor_id = ${id} order by id desc limit 1`.execute(t.database.db);
    expect(flip.rows[0]).toEqual({
      from_status: 'regional',
      to_status: 'unknown',
      message: 'Status unknown: no recent result from EU West, US East (0 of the 1 needed)',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'status', monitorId: id, from: 'regional', to: 'unknown' }),
    );

    const notice = (await t.inject('/api/v1/locations/coverage')).json();
    expect(notice).toEqual({
      monitors: 1,
      since: new Date(now).toISOString(),
      locations: [
        { id: eu, name: 'EU West', monitors: 1 },
        { id: us, name: 'US East', monitors: 1 },
      ],
    });

    // One location is back: its result decides the monitor (a majority of one) and the
    // notice clears.
    now = due(R + 2) + 2000;
    await report(eu, R + 2);
    expect(await statusOf(id)).toBe('up');
    expect((await t.inject('/api/v1/locations/coverage')).json()).toEqual({
      monitors: 0,
      since: null,
      locations: [],
    });
    expect(await sweep()).toBe(0);
  });

  it('shows the notice to admins only', async () => {
    const editor = await t.identity('editor', 'editor@example.com');
    const r = await t.inject({ url: '/api/v1/locations/coverage', headers: editor.headers });
    expect(r.statusCode).toBe(403);
  });
});
