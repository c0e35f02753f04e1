import {
  MaintenancePreview,
  MaintenanceWindow,
  Monitor,
  MonitorList,
  Problem,
  type MaintenanceInput,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

// Sunday 2026-03-22, 12:00 UTC: a week before Berlin springs forward.
let now = Date.parse('2026-03-22T12:00:00Z');

describe.each(engines)('maintenance windows over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => now } });
  });
  afterAll(async () => t.stop());

  async function create(body: unknown = maintenanceInput()) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/maintenance', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.location).toMatch(/^\/api\/v1\/maintenance\/\d+$/);
    return MaintenanceWindow.parse(res.json());
  }

  async function errors(body: unknown, url = '/api/v1/maintenance') {
    const res = await t.inject({ method: 'POST', url, ...json(body) });
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  async function monitorStatus(id: number) {
    const one = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${id}` })).json());
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    return {
      one: one.status,
      row: list.items.find((i) => i.id === id)?.status,
      maintenanceCount: list.counts.maintenance,
    };
  }

  it('creates a weekly window in Berlin whose occurrences keep 02:30 local across the change', async () => {
    const input = maintenanceInput({
      title: 'Sunday patching',
      schedule: {
        kind: 'rrule',
        expression: 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30',
        durationMinutes: 90,
        from: '2026-03-01T00:00',
        until: null,
      },
    });
    const w = await create(input);
    expect(w).toMatchObject({
      title: 'Sunday patching',
      description: '',
      timezone: 'Europe/Berlin',
      scope: { kind: 'all' },
      state: 'scheduled',
      activeUntil: null,
      cancelledAt: null,
      createdBy: 'owner key',
    });
    expect(w.nextOccurrences).toEqual([
      { startsAt: '2026-03-29T01:00:00.000Z', endsAt: '2026-03-29T02:30:00.000Z' }, // gap: 03:00 CEST
      { startsAt: '2026-04-05T00:30:00.000Z', endsAt: '2026-04-05T02:00:00.000Z' },
      { startsAt: '2026-04-12T00:30:00.000Z', endsAt: '2026-04-12T02:00:00.000Z' },
      { startsAt: '2026-04-19T00:30:00.000Z', endsAt: '2026-04-19T02:00:00.000Z' },
      { startsAt: '2026-04-26T00:30:00.000Z', endsAt: '2026-04-26T02:00:00.000Z' },
    ]);
    const got = await t.inject({ url: `/api/v1/maintenance/${w.id}` });
    expect(MaintenanceWindow.parse(got.json())).toEqual(w);
  });

  it('answers bad rules, zones and times with field errors', async () => {
    const base = maintenanceInput();
    const recurring = base.schedule as Extract<MaintenanceInput['schedule'], { kind: 'rrule' }>;
    const cases: [unknown, string, RegExp][] = [
      [
        { ...base, schedule: { ...recurring, kind: 'cron', expression: '61 * * * *' } },
        'schedule.expression',
        /minute/,
      ],
      [
        { ...base, schedule: { ...recurring, kind: 'cron', expression: '0 3 * *' } },
        'schedule.expression',
        /five fields/,
      ],
      [
        { ...base, schedule: { ...recurring, expression: 'FREQ=FORTNIGHTLY' } },
        'schedule.expression',
        /FREQ/,
      ],
      [
        { ...base, schedule: { ...recurring, expression: 'FREQ=DAILY;BYDAY=XX' } },
        'schedule.expression',
        /RRULE/,
      ],
      [
        { ...base, schedule: { ...recurring, expression: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31' } },
        'schedule.expression',
        /never/,
      ],
      [{ ...base, timezone: 'Europe/Atlantis' }, 'timezone', /time zone/],
      [
        { ...base, schedule: { ...recurring, durationMinutes: 0 } },
        'schedule.durationMinutes',
        /at least 1 minute/,
      ],
      [
        { ...base, schedule: { ...recurring, durationMinutes: 10_081 } },
        'schedule.durationMinutes',
        /7 days/,
      ],
      [
        { ...base, schedule: { ...recurring, from: '2026-02-30T10:00' } },
        'schedule.from',
        /date and time/,
      ],
      [
        { ...base, schedule: { ...recurring, until: '2029-01-01T00:00' } },
        'schedule.until',
        /after the start/,
      ],
      [
        {
          ...base,
          schedule: {
            kind: 'once',
            startsAt: '2026-04-01T10:00:00Z',
            endsAt: '2026-04-01T09:00:00Z',
          },
        },
        'schedule.endsAt',
        /after the start/,
      ],
      [{ ...base, title: '' }, 'title', /title/],
      [
        { ...base, scope: { kind: 'monitors', monitorIds: [] } },
        'scope.monitorIds',
        /at least one/,
      ],
      [
        { ...base, scope: { kind: 'monitors', monitorIds: [987_654] } },
        'scope.monitorIds.0',
        /987654 does not exist/,
      ],
    ];
    for (const [body, path, message] of cases) {
      const found = await errors(body);
      expect(Object.keys(found), JSON.stringify(body)).toEqual([path]);
      expect(found[path]).toMatch(message);
    }
    expect(Object.keys(await errors({ ...base, colour: 'red' }))).toEqual(['']);
  });

  it('previews an unsaved schedule, with the same field errors', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance/preview',
      ...json({
        timezone: 'America/New_York',
        schedule: {
          kind: 'cron',
          expression: '0 3 * * *',
          durationMinutes: 30,
          from: '2026-03-06T00:00',
        },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = MaintenancePreview.parse(res.json());
    expect(preview.state).toBe('scheduled');
    expect(preview.occurrences.map((o) => o.startsAt)).toEqual([
      '2026-03-23T07:00:00.000Z',
      '2026-03-24T07:00:00.000Z',
      '2026-03-25T07:00:00.000Z',
      '2026-03-26T07:00:00.000Z',
      '2026-03-27T07:00:00.000Z',
    ]);
    const bad = await errors(
      {
        timezone: 'UTC',
        schedule: {
          kind: 'rrule',
          expression: 'FREQ=DAILY\nDTSTART:20260101T000000Z',
          durationMinutes: 5,
          from: '2026-03-06T00:00',
        },
      },
      '/api/v1/maintenance/preview',
    );
    expect(bad['schedule.expression']).toMatch(/DTSTART/);
  });

  it('shows monitors in an active window as maintenance until it is cancelled', async () => {
    const inside = (
      await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(monitorInput()) })
    ).json<{ id: number }>().id;
    const outside = (
      await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(monitorInput()) })
    ).json<{ id: number }>().id;
    expect((await monitorStatus(inside)).one).toBe('pending');
    const before = (await monitorStatus(inside)).maintenanceCount;

    const w = await create(
      maintenanceInput({
        title: 'Database upgrade',
        scope: { kind: 'monitors', monitorIds: [inside] },
        schedule: {
          kind: 'once',
          startsAt: '2026-03-22T11:00:00+00:00',
          endsAt: '2026-03-22T13:30:00+01:00',
        },
      }),
    );
    expect(w.state).toBe('active');
    expect(w.activeUntil).toBe('2026-03-22T12:30:00.000Z');
    expect(w.nextOccurrences).toEqual([
      { startsAt: '2026-03-22T11:00:00.000Z', endsAt: '2026-03-22T12:30:00.000Z' },
    ]);
    expect(await monitorStatus(inside)).toEqual({
      one: 'maintenance',
      row: 'maintenance',
      maintenanceCount: before + 1,
    });
    expect((await monitorStatus(outside)).one).toBe('pending');

    const listed = (await t.inject({ url: '/api/v1/maintenance?state=active' })).json<{
      items: MaintenanceWindow[];
    }>();
    expect(listed.items.map((i) => i.id)).toEqual([w.id]);

    const cancel = await t.inject({ method: 'POST', url: `/api/v1/maintenance/${w.id}/cancel` });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(MaintenanceWindow.parse(cancel.json())).toMatchObject({
      state: 'cancelled',
      nextOccurrences: [],
      activeUntil: null,
    });
    expect((await monitorStatus(inside)).one).toBe('pending');
    const again = await t.inject({ method: 'POST', url: `/api/v1/maintenance/${w.id}/cancel` });
    expect(again.statusCode).toBe(409);
    const edit = await t.inject({
      method: 'PUT',
      url: `/api/v1/maintenance/${w.id}`,
      ...json(maintenanceInput()),
    });
    expect(edit.statusCode).toBe(409);
  });

  it('moves windows through scheduled → active → ended as time passes, and lists by state', async () => {
    const w = await create(
      maintenanceInput({
        title: 'Short one',
        schedule: {
          kind: 'once',
          startsAt: '2026-03-22T14:00:00Z',
          endsAt: '2026-03-22T15:00:00Z',
        },
      }),
    );
    const state = async () =>
      MaintenanceWindow.parse((await t.inject({ url: `/api/v1/maintenance/${w.id}` })).json())
        .state;
    expect(await state()).toBe('scheduled');
    const saved = now;
    try {
      now = Date.parse('2026-03-22T14:30:00Z');
      expect(await state()).toBe('active');
      now = Date.parse('2026-03-22T15:00:00Z');
      expect(await state()).toBe('ended');
      const ended = (await t.inject({ url: '/api/v1/maintenance?state=ended' })).json<{
        items: MaintenanceWindow[];
      }>();
      expect(ended.items.map((i) => i.id)).toContain(w.id);
      const bad = await t.inject({ url: '/api/v1/maintenance?state=later' });
      expect(bad.statusCode).toBe(400);
    } finally {
      now = saved;
    }
  });

  it('replaces and deletes a window, and writes each change to the audit log', async () => {
    const w = await create();
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/maintenance/${w.id}`,
      ...json(maintenanceInput({ title: 'Renamed', timezone: 'America/New_York' })),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ id: w.id, title: 'Renamed', timezone: 'America/New_York' });
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/maintenance/${w.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.inject({ url: `/api/v1/maintenance/${w.id}` })).statusCode).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: `/api/v1/maintenance/${w.id}` })).statusCode,
    ).toBe(404);

    const audit = (await t.inject({ url: '/api/v1/audit?limit=200' })).json<{
      items: { action: string; target: { id: string } | null; summary: string }[];
    }>();
    const mine = audit.items.filter(
      (e) => e.target?.id === String(w.id) && e.action.startsWith('maintenance.'),
    );
    expect(mine.map((e) => e.action).sort()).toEqual([
      'maintenance.created',
      'maintenance.deleted',
      'maintenance.updated',
    ]);
    expect(mine.find((e) => e.action === 'maintenance.updated')?.summary).toMatch(
      /title, timezone/,
    );
  });

  it('describes its routes in the OpenAPI document', async () => {
    const doc = (await t.inject({ url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(Object.keys(doc.paths['/api/v1/maintenance'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/v1/maintenance/{id}'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'put',
    ]);
    expect(doc.paths['/api/v1/maintenance/preview']).toHaveProperty('post');
    expect(doc.paths['/api/v1/maintenance/{id}/cancel']).toHaveProperty('post');
  });

  it('lets a viewer read but not write', async () => {
    const viewer = await t.identity('viewer');
    const list = await t.inject({ url: '/api/v1/maintenance', headers: viewer.headers });
    expect(list.statusCode).toBe(200);
    const post = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      headers: { ...viewer.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(maintenanceInput()),
    });
    expect(post.statusCode).toBe(403);
  });
});
