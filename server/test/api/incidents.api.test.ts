import {
  AuditPage,
  IncidentDetail,
  IncidentPage,
  IncidentUpdateList,
  Monitor,
  Problem,
  type Incident,
  type MonitorStatus,
  type ServerEvent,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import type { FailureCause } from '../../src/domain/incidents.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

describe.each(engines)('incidents API on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;
  let viewer: Identity;
  let editor: Identity;
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ engine });
    repos = repositories(t.database);
    viewer = await t.identity('viewer');
    editor = await t.identity('editor');
    t.hub.subscribe(({ event }) => events.push(event));
  });
  afterAll(async () => t.stop());

  async function monitor(name?: string) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput(name ? { name } : {})),
    });
    return Monitor.parse(res.json());
  }

  async function declare(body: Record<string, unknown> = {}, headers = editor.headers) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json({ title: 'Checkout is slow', message: 'Looking into it', ...body }, headers),
    });
    expect(res.statusCode, res.body).toBe(201);
    return IncidentDetail.parse(res.json());
  }

  async function update(id: number, body: Record<string, unknown>, headers = editor.headers) {
    const res = await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${id}/updates`,
      ...json({ message: 'More news', ...body }, headers),
    });
    expect(res.statusCode, res.body).toBe(201);
    return IncidentDetail.parse(res.json());
  }

  async function list(query: string) {
    const res = await t.inject({ url: `/api/v1/incidents?${query}`, headers: viewer.headers });
    expect(res.statusCode, res.body).toBe(200);
    return IncidentPage.parse(res.json());
  }

  const write = (
    monitorId: number,
    at: number,
    status: MonitorStatus,
    flip: ResultWrite['flip'],
    extra: Partial<ResultWrite> = {},
  ): ResultWrite => ({
    monitorId,
    at,
    run: status === 'down' ? downRun() : checkRun(),
    status,
    failures: status === 'down' ? 2 : 0,
    recent: [],
    flip,
    ...extra,
  });

  it('declares an incident with its first update, affected monitors, audit line and event', async () => {
    const api = await monitor('API');
    const web = await monitor('Web');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json(
        {
          title: '  Payments failing ',
          severity: 'critical',
          message: 'Card payments fail for some people',
          public: false,
          monitorIds: [web.id, api.id],
        },
        editor.headers,
      ),
    });
    expect(res.statusCode, res.body).toBe(201);
    const incident = IncidentDetail.parse(res.json());
    expect(res.headers.location).toBe(`/api/v1/incidents/${incident.id}`);
    expect(incident).toMatchObject({
      title: 'Payments failing',
      severity: 'critical',
      state: 'investigating',
      automatic: false,
      monitorId: null,
      monitors: [
        { id: api.id, name: 'API' },
        { id: web.id, name: 'Web' },
      ],
      resolvedAt: null,
      cause: null,
    });
    expect(incident.updates).toEqual([
      expect.objectContaining({
        state: 'investigating',
        message: 'Card payments fail for some people',
        public: false,
        automatic: false,
        author: { id: editor.userId, label: expect.stringContaining('editor') },
      }),
    ]);
    const got = await t.inject({
      url: `/api/v1/incidents/${incident.id}`,
      headers: viewer.headers,
    });
    expect(IncidentDetail.parse(got.json())).toEqual(incident);
    expect(events).toContainEqual(
      expect.objectContaining({
        kind: 'incident',
        change: 'created',
        incidentId: incident.id,
        monitorId: null,
        monitorIds: [api.id, web.id],
        state: 'investigating',
        severity: 'critical',
      }),
    );
    const audit = AuditPage.parse(
      (await t.inject({ url: '/api/v1/audit?action=incident.created' })).json(),
    );
    expect(audit.items[0]).toMatchObject({
      target: { type: 'incident', id: String(incident.id) },
      summary: 'Declared critical incident "Payments failing"',
    });
  });

  it('refuses an incomplete declaration field by field, and unknown monitors', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json({ title: ' ', message: '', severity: 'huge', state: 'resolved' }, editor.headers),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    expect(problem.errors?.map((e) => e.path).sort()).toEqual([
      'message',
      'severity',
      'state',
      'title',
    ]);
    const unknown = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json({ title: 'x', message: 'y', monitorIds: [999_999] }, editor.headers),
    });
    expect(unknown.statusCode).toBe(400);
    expect(Problem.parse(unknown.json()).errors).toEqual([
      { path: 'monitorIds.0', message: 'There is no monitor 999999', code: 'not_found' },
    ]);
    const missing = await t.inject({ url: '/api/v1/incidents/999999' });
    expect(missing.statusCode).toBe(404);
    expect(Problem.parse(missing.json()).type).toBe('not_found');
  });

  it('moves through the SPEC §4 states with updates, resolves, and reopens', async () => {
    const incident = await declare();
    const identified = await update(incident.id, { state: 'identified', message: 'A bad deploy' });
    expect(identified.state).toBe('identified');
    const monitoring = await update(incident.id, { state: 'monitoring', public: false });
    expect(monitoring).toMatchObject({ state: 'monitoring', resolvedAt: null });
    const resolved = await update(incident.id, { state: 'resolved', message: 'Fixed' });
    expect(resolved.state).toBe('resolved');
    expect(resolved.resolvedAt).not.toBeNull();
    // Newest first, with who said what and whether the public sees it.
    expect(resolved.updates.map((u) => [u.state, u.public])).toEqual([
      ['resolved', true],
      ['monitoring', false],
      ['identified', true],
      ['investigating', true],
    ]);
    expect(events.filter((e) => e.kind === 'incident' && e.incidentId === incident.id)).toEqual([
      expect.objectContaining({ change: 'created' }),
      expect.objectContaining({ change: 'updated', state: 'identified' }),
      expect.objectContaining({ change: 'updated', state: 'monitoring' }),
      expect.objectContaining({ change: 'resolved', state: 'resolved' }),
    ]);
    const note = await update(incident.id, { state: 'resolved', message: 'Postmortem to follow' });
    expect(note.resolvedAt).toBe(resolved.resolvedAt);
    const reopened = await update(incident.id, { state: 'investigating', message: 'It is back' });
    expect(reopened).toMatchObject({ state: 'investigating', resolvedAt: null });
    const updates = IncidentUpdateList.parse(
      (
        await t.inject({ url: `/api/v1/incidents/${incident.id}/updates`, headers: viewer.headers })
      ).json(),
    );
    expect(updates.items).toHaveLength(6);
    expect(updates.items[0]?.message).toBe('It is back');
  });

  it('edits title, severity and monitors, and deletes', async () => {
    const m = await monitor('Edited target');
    const incident = await declare();
    const res = await t.inject({
      method: 'PATCH',
      url: `/api/v1/incidents/${incident.id}`,
      ...json({ title: 'Renamed', severity: 'minor', monitorIds: [m.id] }, editor.headers),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(IncidentDetail.parse(res.json())).toMatchObject({
      title: 'Renamed',
      severity: 'minor',
      monitors: [{ id: m.id, name: 'Edited target' }],
    });
    const empty = await t.inject({
      method: 'PATCH',
      url: `/api/v1/incidents/${incident.id}`,
      ...json({}, editor.headers),
    });
    expect(empty.statusCode).toBe(400);
    const del = await t.inject({
      method: 'DELETE',
      url: `/api/v1/incidents/${incident.id}`,
      headers: editor.headers,
    });
    expect(del.statusCode).toBe(204);
    expect((await t.inject(`/api/v1/incidents/${incident.id}`)).statusCode).toBe(404);
    expect(events.at(-1)).toMatchObject({
      kind: 'incident',
      change: 'deleted',
      incidentId: incident.id,
    });
  });

  it('viewers read but may not declare, edit, update or delete (403)', async () => {
    const incident = await declare();
    const base = `/api/v1/incidents`;
    const attempts = [
      { method: 'POST' as const, url: base, body: { title: 'x', message: 'y' } },
      { method: 'PATCH' as const, url: `${base}/${incident.id}`, body: { title: 'x' } },
      {
        method: 'POST' as const,
        url: `${base}/${incident.id}/updates`,
        body: { state: 'resolved', message: 'y' },
      },
      { method: 'DELETE' as const, url: `${base}/${incident.id}` },
    ];
    for (const a of attempts) {
      const res = await t.inject({
        method: a.method,
        url: a.url,
        ...(a.body ? json(a.body, viewer.headers) : { headers: viewer.headers }),
      });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(403);
      expect(Problem.parse(res.json()).type).toBe('forbidden');
    }
    expect(
      (await t.inject({ url: `${base}/${incident.id}`, headers: viewer.headers })).statusCode,
    ).toBe(200);
    const unchanged = IncidentDetail.parse((await t.inject(`${base}/${incident.id}`)).json());
    expect(unchanged).toMatchObject({ title: incident.title, state: 'investigating' });
    expect(unchanged.updates).toHaveLength(1);
  });

  it('lists open incidents first, filters by state and monitor, and pages without gaps', async () => {
    const m = await monitor('Filtered');
    const mine: Incident[] = [];
    for (let i = 0; i < 7; i += 1)
      mine.push(await declare({ title: `Paged ${i}`, monitorIds: [m.id] }));
    for (const i of [1, 3, 4]) await update(mine[i]!.id, { state: 'resolved' });

    const all: Incident[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(
        `monitorId=${m.id}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(all.map((i) => i.title)).toEqual([
      'Paged 6',
      'Paged 5',
      'Paged 2',
      'Paged 0',
      'Paged 4',
      'Paged 3',
      'Paged 1',
    ]);
    expect((await list(`monitorId=${m.id}&state=open`)).items.map((i) => i.title)).toEqual([
      'Paged 6',
      'Paged 5',
      'Paged 2',
      'Paged 0',
    ]);
    const resolved = await list(`monitorId=${m.id}&state=resolved&limit=2`);
    expect(resolved.items.map((i) => i.title)).toEqual(['Paged 4', 'Paged 3']);
    expect(resolved.nextCursor).not.toBeNull();
    const rest = await list(
      `monitorId=${m.id}&state=resolved&cursor=${encodeURIComponent(resolved.nextCursor!)}`,
    );
    expect(rest).toEqual({
      items: [expect.objectContaining({ title: 'Paged 1' })],
      nextCursor: null,
    });
    // Without a monitor filter everything open still comes before everything resolved.
    const everything = await list('limit=200');
    const firstResolved = everything.items.findIndex((i) => i.resolvedAt !== null);
    expect(everything.items.slice(firstResolved).every((i) => i.resolvedAt !== null)).toBe(true);
    const bad = await t.inject({ url: '/api/v1/incidents?state=closed&cursor=nope' });
    expect(bad.statusCode).toBe(400);
    expect(
      Problem.parse(bad.json())
        .errors?.map((e) => e.path)
        .sort(),
    ).toEqual(['cursor', 'state']);
  });

  it('opens an automatic incident on DOWN with the first failure as cause, and resolves it on recovery', async () => {
    const m = await monitor('Shop');
    const t0 = Date.parse('2026-03-01T10:00:00Z');
    const first: FailureCause = { at: t0, code: 'http_status', message: 'HTTP 503 (first)' };
    await repos.results.writeBatch([write(m.id, t0 - 60_000, 'up', { from: 'pending', to: 'up' })]);
    const opened = await repos.results.writeBatch([
      write(m.id, t0 + 30_000, 'down', { from: 'up', to: 'down' }, { firstFailure: first }),
    ]);
    expect(opened[0]?.incident?.change).toBe('created');
    const [auto] = (await list(`monitorId=${m.id}&state=open`)).items;
    expect(auto).toMatchObject({
      title: 'Shop is down',
      automatic: true,
      monitorId: m.id,
      monitors: [{ id: m.id, name: 'Shop' }],
      state: 'investigating',
      startedAt: new Date(t0).toISOString(),
      cause: { at: new Date(t0).toISOString(), code: 'http_status', message: 'HTTP 503 (first)' },
    });

    // Still down: the same outage, no second incident.
    const again = await repos.results.writeBatch([
      write(m.id, t0 + 90_000, 'down', null, { firstFailure: first }),
    ]);
    expect(again[0]?.incident).toBeUndefined();
    expect((await list(`monitorId=${m.id}`)).items).toHaveLength(1);

    const back = await repos.results.writeBatch([
      write(m.id, t0 + 252_000, 'up', { from: 'down', to: 'up' }),
    ]);
    expect(back[0]?.incident?.change).toBe('resolved');
    const detail = IncidentDetail.parse((await t.inject(`/api/v1/incidents/${auto!.id}`)).json());
    expect(detail).toMatchObject({
      state: 'resolved',
      resolvedAt: new Date(t0 + 252_000).toISOString(),
    });
    expect(detail.updates.map((u) => [u.state, u.message, u.author.label, u.automatic])).toEqual([
      ['resolved', 'Resolved automatically: back up after 4 min 12 s', 'Pagewatch', true],
      [
        'investigating',
        'Opened automatically: the monitor is down. First failure: HTTP 503 (first)',
        'Pagewatch',
        true,
      ],
    ]);
  });

  it('opens one for a monitor found down with none (restart, maintenance ended), never in maintenance', async () => {
    const m = await monitor('Restarted');
    const t0 = Date.parse('2026-03-02T10:00:00Z');
    const inMaintenance = await repos.results.writeBatch([
      write(m.id, t0, 'down', { from: 'up', to: 'down' }, { maintenance: true }),
    ]);
    expect(inMaintenance[0]?.incident).toBeUndefined();
    expect((await list(`monitorId=${m.id}`)).items).toEqual([]);
    // No flip and no first failure known: the write's own check is the cause.
    const after = await repos.results.writeBatch([write(m.id, t0 + 60_000, 'down', null)]);
    expect(after[0]?.incident?.incident).toMatchObject({
      startedAt: new Date(t0 + 60_000).toISOString(),
      cause: { code: 'connect_refused', message: 'Connection refused' },
    });
  });

  it('resolving by hand during an outage is respected; declared incidents are never auto-resolved', async () => {
    const m = await monitor('Hand-resolved');
    const t0 = Date.parse('2026-03-03T10:00:00Z');
    const cause: FailureCause = { at: t0, code: 'timeout', message: 'Timed out' };
    const [opened] = await repos.results.writeBatch([
      write(m.id, t0, 'down', { from: 'up', to: 'down' }, { firstFailure: cause }),
    ]);
    const autoId = opened!.incident!.incident.id;
    const declared = await declare({ title: 'Declared on it', monitorIds: [m.id] });
    await update(autoId, { state: 'resolved', message: 'Known, ignoring' });
    const still = await repos.results.writeBatch([
      write(m.id, t0 + 60_000, 'down', null, { firstFailure: cause }),
    ]);
    expect(still[0]?.incident).toBeUndefined();
    await repos.results.writeBatch([write(m.id, t0 + 120_000, 'up', { from: 'down', to: 'up' })]);
    const d = IncidentDetail.parse((await t.inject(`/api/v1/incidents/${declared.id}`)).json());
    expect(d).toMatchObject({ state: 'investigating', resolvedAt: null });
  });

  it('describes every incident route in the OpenAPI document with its access rule', async () => {
    const doc = (await t.inject({ url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { 'x-access': string }>>;
    }>();
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/v1/incidents'))
      .flatMap(([p, m]) =>
        Object.entries(m).map(([verb, op]) => `${verb.toUpperCase()} ${p} ${op['x-access']}`),
      );
    expect(ops.sort()).toEqual([
      'DELETE /api/v1/incidents/{id} editor',
      'GET /api/v1/incidents viewer',
      'GET /api/v1/incidents/{id} viewer',
      'GET /api/v1/incidents/{id}/updates viewer',
      'PATCH /api/v1/incidents/{id} editor',
      'POST /api/v1/incidents editor',
      'POST /api/v1/incidents/bulk-resolve editor',
      'POST /api/v1/incidents/{id}/updates editor',
    ]);
  });

  it('deleting a monitor keeps its incidents, without the monitor reference', async () => {
    const m = await monitor('Doomed');
    const [opened] = await repos.results.writeBatch([
      write(m.id, Date.now(), 'down', { from: 'up', to: 'down' }),
    ]);
    const id = opened!.incident!.incident.id;
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${m.id}` });
    expect(del.statusCode).toBe(204);
    const kept = IncidentDetail.parse((await t.inject(`/api/v1/incidents/${id}`)).json());
    expect(kept).toMatchObject({ title: 'Doomed is down', monitorId: null, monitors: [] });
    expect(kept.updates).toHaveLength(1);
  });
});
