import { IncidentBulkResult, IncidentDetail, IncidentPage, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

const DAY = 86_400_000;
const START = Date.parse('2026-03-01T12:00:00Z');

describe.each(engines)('incidents list filters and bulk resolve on %s', (engine) => {
  let t: TestApp;
  let editor: Identity;
  let viewer: Identity;
  // The clock decides each incident's start, so the date range has something to cut.
  let now = START;
  const made: IncidentDetail[] = [];
  let monitorId = 0;

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => now } });
    editor = await t.identity('editor');
    viewer = await t.identity('viewer');
    const m = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(monitorInput()) });
    monitorId = m.json<{ id: number }>().id;
    const titles = ['Checkout 50% slow', 'Login down', 'checkout_api errors', 'Search stale'];
    for (const [i, title] of titles.entries()) {
      now = START + i * DAY;
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/incidents',
        ...json(
          {
            title,
            message: 'Looking',
            state: i === 3 ? 'identified' : 'investigating',
            monitorIds: i === 1 ? [monitorId] : [],
          },
          editor.headers,
        ),
      });
      expect(res.statusCode, res.body).toBe(201);
      made.push(IncidentDetail.parse(res.json()));
    }
    now = START + 10 * DAY;
  });
  afterAll(async () => t.stop());

  const titles = async (query: string) => {
    const res = await t.inject({ url: `/api/v1/incidents?${query}`, headers: viewer.headers });
    expect(res.statusCode, res.body).toBe(200);
    return IncidentPage.parse(res.json()).items.map((i) => i.title);
  };

  it('searches titles case-insensitively, taking % and _ literally', async () => {
    expect(await titles('q=CHECKOUT')).toEqual(['checkout_api errors', 'Checkout 50% slow']);
    expect(await titles('q=50%25')).toEqual(['Checkout 50% slow']);
    expect(await titles('q=t_a')).toEqual(['checkout_api errors']);
    expect(await titles('q=nothing')).toEqual([]);
  });

  it('filters by state, monitor and start date', async () => {
    expect(await titles('state=identified')).toEqual(['Search stale']);
    expect(await titles(`monitorId=${monitorId}`)).toEqual(['Login down']);
    const from = new Date(START + DAY).toISOString();
    const to = new Date(START + 3 * DAY).toISOString();
    expect(await titles(`from=${from}&to=${to}`)).toEqual(['checkout_api errors', 'Login down']);
    const bad = await t.inject({ url: '/api/v1/incidents?from=yesterday' });
    expect(bad.statusCode).toBe(400);
  });

  it('resolves many at once, naming those already resolved or deleted meanwhile', async () => {
    const [a, b, c, d] = made as [IncidentDetail, IncidentDetail, IncidentDetail, IncidentDetail];
    const one = await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${d.id}/updates`,
      ...json({ state: 'resolved', message: 'Fixed' }, editor.headers),
    });
    expect(one.statusCode).toBe(201);
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/incidents/${c.id}` });
    expect(del.statusCode).toBe(204);
    const forbidden = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents/bulk-resolve',
      ...json({ ids: [a.id], message: 'Done' }, viewer.headers),
    });
    expect(forbidden.statusCode).toBe(403);
    const empty = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents/bulk-resolve',
      ...json({ ids: [], message: 'Done' }, editor.headers),
    });
    expect(empty.statusCode).toBe(400);
    expect(Problem.parse(empty.json()).type).toContain('validation_failed');

    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents/bulk-resolve',
      ...json(
        { ids: [a.id, b.id, c.id, d.id], message: 'All fixed by the rollback' },
        editor.headers,
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(IncidentBulkResult.parse(res.json())).toEqual({
      resolved: [a.id, b.id],
      alreadyResolved: [d.id],
      notFound: [c.id],
    });
    for (const id of [a.id, b.id]) {
      const got = IncidentDetail.parse((await t.inject(`/api/v1/incidents/${id}`)).json());
      expect(got.state).toBe('resolved');
      expect(got.updates[0]!.message).toBe('All fixed by the rollback');
    }
    expect(await titles('state=open')).toEqual([]);
  });
});
