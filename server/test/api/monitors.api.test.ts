import { CheckPage, Monitor, MonitorList, MonitorStats, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { repositories } from '../../src/db/repositories/index.js';
import { checkRun, downRun } from '../support/factories.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const valid = { type: 'http', name: 'Homepage', url: 'https://example.com/' };

describe.each(engines)('monitors API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function create(body: Record<string, unknown> = valid) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  it('creates a monitor with defaults from SPEC §9 and a Location header', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(valid) });
    expect(res.statusCode).toBe(201);
    const m = Monitor.parse(res.json());
    expect(res.headers.location).toBe(`/api/v1/monitors/${m.id}`);
    expect(m).toMatchObject({
      name: 'Homepage',
      url: 'https://example.com/',
      interval: 60,
      timeout: 10,
      retries: 1,
      method: 'GET',
      acceptedStatusCodes: ['200-299'],
      followRedirects: true,
      maxRedirects: 10,
      status: 'pending',
      paused: false,
      lastCheck: null,
    });
  });

  it('reads, replaces and deletes a monitor', async () => {
    const m = await create();
    const got = await t.inject({ url: `/api/v1/monitors/${m.id}` });
    expect(Monitor.parse(got.json())).toEqual(m);
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...valid, name: 'Renamed', interval: 30, tags: ['prod'] }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Renamed', interval: 30, tags: ['prod'] });
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${m.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await t.inject({ url: `/api/v1/monitors/${m.id}` })).statusCode).toBe(404);
  });

  it('lists monitors with counts by status', async () => {
    const m = await create({ ...valid, name: 'Listed' });
    const res = await t.inject({ url: '/api/v1/monitors' });
    const list = MonitorList.parse(res.json());
    const row = list.items.find((i) => i.id === m.id);
    expect(row).toMatchObject({
      name: 'Listed',
      target: 'https://example.com/',
      status: 'pending',
      uptime24h: null,
      recent: { outcomes: '', latencyMs: [] },
    });
    expect(list.counts.pending).toBeGreaterThanOrEqual(1);
  });

  it('shows 24 h uptime, the last check and recent latencies once results exist', async () => {
    const m = await create({ ...valid, name: 'Checked' });
    const now = Date.now();
    await repositories(t.database).results.writeBatch([
      {
        monitorId: m.id,
        at: now - 2000,
        run: checkRun({ latencyMs: 20 }),
        status: 'up',
        failures: 0,
        recent: [['up', 20]],
        flip: { from: 'pending', to: 'up' },
      },
      {
        monitorId: m.id,
        at: now - 1000,
        run: downRun(),
        status: 'up',
        failures: 1,
        recent: [
          ['up', 20],
          ['down', null],
        ],
        flip: null,
      },
    ]);
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)).toMatchObject({
      status: 'up',
      uptime24h: 50,
      lastCheck: { outcome: 'down', errorCode: 'connect_refused' },
      recent: { outcomes: 'ud', latencyMs: [20, null] },
    });
    const page = CheckPage.parse(
      (await t.inject({ url: `/api/v1/monitors/${m.id}/checks?limit=1` })).json(),
    );
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const stats = MonitorStats.parse(
      (await t.inject({ url: `/api/v1/monitors/${m.id}/stats?window=24h` })).json(),
    );
    expect(stats).toMatchObject({
      window: '24h',
      checks: 2,
      up: 1,
      down: 1,
      uptime: 50,
      latency: { p50: 20, p95: 20, p99: 20 },
    });
    expect(stats.series.length).toBeGreaterThanOrEqual(1);
  });

  it('pauses and resumes', async () => {
    const m = await create();
    const paused = await t.inject({ method: 'POST', url: `/api/v1/monitors/${m.id}/pause` });
    expect(paused.json()).toMatchObject({ paused: true, status: 'paused' });
    const resumed = await t.inject({ method: 'POST', url: `/api/v1/monitors/${m.id}/resume` });
    expect(resumed.json()).toMatchObject({ paused: false, status: 'pending' });
  });

  it('refuses check-now on a paused monitor, and hands it over when no scheduler runs here', async () => {
    const m = await create({ ...valid, paused: true });
    const paused = await t.inject({
      method: 'POST',
      url: `/api/v1/monitors/${m.id}/check-now`,
    });
    expect(paused.statusCode).toBe(409);
    expect(paused.json()).toMatchObject({ type: 'conflict' });
    await t.inject({ method: 'POST', url: `/api/v1/monitors/${m.id}/resume` });
    const noScheduler = await t.inject({
      method: 'POST',
      url: `/api/v1/monitors/${m.id}/check-now`,
    });
    // The process that owns the monitor's partition takes it from the database (ADR 24).
    expect(noScheduler.statusCode).toBe(202);
    const waiting = await t.database.db
      .selectFrom('check_requests')
      .select(['monitor_id', 'kind'])
      .execute();
    expect(waiting).toEqual([{ monitor_id: m.id, kind: 'check' }]);
  });

  describe('bad input gets a clear problem (SPEC §8) and changes nothing', () => {
    async function problem(
      method: 'POST' | 'PUT',
      url: string,
      payload: string,
      contentType = 'application/json',
    ) {
      const res = await t.inject({
        method,
        url,
        payload,
        headers: { 'content-type': contentType },
      });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      return { status: res.statusCode, body: Problem.parse(res.json()) };
    }

    it('names every invalid field with a message in plain words', async () => {
      const before = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json()).items
        .length;
      const { status, body } = await problem(
        'POST',
        '/api/v1/monitors',
        JSON.stringify({
          type: 'http',
          name: '',
          url: 'ftp://example.com',
          interval: 5,
          timeout: 0,
          retries: 11,
          headers: [{ name: 'Bad Header', value: 'x' }],
          acceptedStatusCodes: ['200-700'],
          tags: ['x'.repeat(41)],
        }),
      );
      expect(status).toBe(400);
      expect(body.type).toBe('validation_failed');
      const byPath = Object.fromEntries((body.errors ?? []).map((e) => [e.path, e.message]));
      expect(Object.keys(byPath).sort()).toEqual(
        [
          'acceptedStatusCodes.0',
          'headers.0.name',
          'interval',
          'name',
          'retries',
          'tags.0',
          'timeout',
          'url',
        ].sort(),
      );
      expect(byPath.url).toMatch(/http/);
      expect(
        MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json()).items,
      ).toHaveLength(before);
    });

    it('rejects a timeout that is not below the interval', async () => {
      const { body } = await problem(
        'POST',
        '/api/v1/monitors',
        JSON.stringify({ ...valid, interval: 10, timeout: 10 }),
      );
      expect(body.errors).toEqual([
        expect.objectContaining({
          path: 'timeout',
          message: 'The timeout must be shorter than the interval',
        }),
      ]);
    });

    it('rejects unknown fields', async () => {
      const { status, body } = await problem(
        'POST',
        '/api/v1/monitors',
        JSON.stringify({ ...valid, isAdmin: true }),
      );
      expect(status).toBe(400);
      expect(body.errors?.[0]).toMatchObject({ code: 'unrecognized_keys' });
    });

    it('rejects malformed JSON, a missing body and a foreign content type', async () => {
      expect((await problem('POST', '/api/v1/monitors', '{"type":')).body).toMatchObject({
        type: 'validation_failed',
        detail: 'The body is not valid JSON',
      });
      expect((await problem('POST', '/api/v1/monitors', '', 'text/plain')).status).toBe(400);
      const none = await t.inject({ method: 'POST', url: '/api/v1/monitors' });
      expect(none.statusCode).toBe(400);
    });

    it('answers 413 beyond the 1 MiB body limit', async () => {
      const { status, body } = await problem(
        'POST',
        '/api/v1/monitors',
        JSON.stringify({ ...valid, description: 'x'.repeat(1_100_000) }),
      );
      expect(status).toBe(413);
      expect(body.type).toBe('payload_too_large');
    });

    it('answers 404 problems for unknown monitors, ids and API paths', async () => {
      for (const url of ['/api/v1/monitors/999999', '/api/v1/monitors/abc', '/api/v1/nope']) {
        const res = await t.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ type: 'not_found' });
      }
    });

    it('rejects unknown query parameters and windows', async () => {
      const m = await create();
      const res = await t.inject({ url: `/api/v1/monitors/${m.id}/stats?window=1y` });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe('window');
    });
  });

  it('answers health and readiness', async () => {
    expect((await t.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.inject({ url: '/readyz' })).json()).toEqual({
      status: 'ok',
      database: 'ok',
    });
  });

  it('tags every response with a request id, echoing a sane incoming one', async () => {
    const res = await t.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const fresh = await t.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id\n' } });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes an OpenAPI 3.1 document covering every API route with its access rule', async () => {
    const doc = (await t.inject({ url: '/api/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(
      doc.paths as Record<string, Record<string, { 'x-access': string }>>,
    ).flatMap(([p, m]) => Object.keys(m).map((verb) => `${verb.toUpperCase()} ${p}`));
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /api/v1/monitors',
        'POST /api/v1/monitors',
        'GET /api/v1/monitors/{id}',
        'PUT /api/v1/monitors/{id}',
        'DELETE /api/v1/monitors/{id}',
        'POST /api/v1/monitors/{id}/pause',
        'POST /api/v1/monitors/{id}/resume',
        'POST /api/v1/monitors/{id}/check-now',
        'GET /api/v1/monitors/{id}/checks',
        'GET /api/v1/monitors/{id}/stats',
        'GET /api/v1/events',
      ]),
    );
    const post = doc.paths['/api/v1/monitors'].post;
    expect(post.requestBody.content['application/json'].schema).toBeTruthy();
    expect(post['x-access']).toBe('editor');
  });
});

describe('route access rules', () => {
  it('refuses to register a route that declares no access rule', async () => {
    const t = await startTestApp({ engine: 'sqlite' });
    try {
      expect(() => t.app.get('/undeclared', async () => 'x')).toThrow(/declares no access rule/);
    } finally {
      await t.stop();
    }
  });
});
