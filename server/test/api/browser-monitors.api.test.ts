import { BrowserRunList, Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trimScreenshots } from '../../src/jobs/retention.js';
import { repositories } from '../../src/db/repositories/index.js';
import { startBrowserSites, type BrowserSites } from '../fixtures/browser-sites.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream, type EventStream } from '../support/sse.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const valid = { type: 'browser', name: 'Shop front', url: 'https://shop.example.com/' };

describe.each(engines)('browser monitors over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('creates one with browser defaults (every 5 min, 30 s timeout) and lists its URL', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(valid) });
    expect(res.statusCode, res.body).toBe(201);
    const m = Monitor.parse(res.json());
    expect(m).toMatchObject({
      ...valid,
      interval: 300,
      timeout: 30,
      viewport: 'desktop',
      waitFor: 'load',
      waitSelector: '',
      requiredText: '',
      requiredSelector: '',
      lcpThresholdMs: null,
      degradedThresholdMs: null,
      failOnJsError: true,
      basicAuth: null,
      headers: [],
    });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    expect(list.items.find((i) => i.id === m.id)).toMatchObject({
      type: 'browser',
      target: valid.url,
    });
    const runs = await t.inject({ url: `/api/v1/monitors/${m.id}/browser-runs` });
    expect(BrowserRunList.parse(runs.json())).toEqual({ items: [] });
  });

  it('refuses non-web schemes, intervals under a minute and an empty wait selector', async () => {
    expect((await errors({ ...valid, url: 'file:///etc/passwd' })).url).toBe(
      'Enter a full http:// or https:// URL with a host, e.g. https://example.com/health',
    );
    expect((await errors({ ...valid, url: 'javascript:alert(1)' })).url).toBeDefined();
    expect((await errors({ ...valid, interval: 30 })).interval).toBe(
      'Browser checks run at most every 60 seconds',
    );
    expect((await errors({ ...valid, waitFor: 'selector' })).waitSelector).toBe(
      'Enter the CSS selector to wait for, e.g. #app .ready',
    );
    expect(Object.keys(await errors({ ...valid, viewport: 'tablet' }))).toEqual(['viewport']);
  });

  const PASSWORD = 'browser-Pa55-never-shown';
  const sealedOf = async (id: number) => (await repositories(t.database).monitors.findById(id))!;

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return { monitor: Monitor.parse(res.json()), raw: res.body };
  }

  const put = (id: number, body: Record<string, unknown>) =>
    t.inject({ method: 'PUT', url: `/api/v1/monitors/${id}`, ...json(body) });

  it('never returns the basic-auth password to any role, and seals it at rest', async () => {
    const basicAuth = { username: 'staging', password: PASSWORD };
    const { monitor, raw } = await create({ ...valid, basicAuth });
    expect(raw).not.toContain(PASSWORD);
    expect(monitor.type === 'browser' && monitor.basicAuth).toEqual({
      username: 'staging',
      hasSecret: true,
    });
    for (const role of ['owner', 'admin', 'editor', 'viewer'] as const) {
      const who = role === 'owner' ? t.owner : await t.identity(role);
      const got = await t.inject({ url: `/api/v1/monitors/${monitor.id}`, headers: who.headers });
      expect(got.statusCode).toBe(200);
      expect(got.body).not.toContain(PASSWORD);
      expect(got.json()).toMatchObject({ basicAuth: { username: 'staging', hasSecret: true } });
      expect(got.json().basicAuth).not.toHaveProperty('password');
    }
    const row = await t.database.db
      .selectFrom('monitors')
      .select(['config', 'secret'])
      .where('id', '=', monitor.id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(PASSWORD);
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(PASSWORD);
  });

  it('keeps the password when an update leaves it out, replaces it or clears it', async () => {
    const { monitor } = await create({
      ...valid,
      basicAuth: { username: 'staging', password: PASSWORD },
    });
    const sealed = (await sealedOf(monitor.id)).secret;
    expect(sealed).toMatch(/^v1\./);

    const kept = await put(monitor.id, {
      ...valid,
      name: 'Renamed',
      basicAuth: { username: 'qa' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ basicAuth: { username: 'qa', hasSecret: true } });
    expect((await sealedOf(monitor.id)).secret).toBe(sealed);

    const replaced = await put(monitor.id, {
      ...valid,
      basicAuth: { username: 'qa', password: 'another' },
    });
    expect(replaced.statusCode).toBe(200);
    const now = (await sealedOf(monitor.id)).secret;
    expect(now).toMatch(/^v1\./);
    expect(now).not.toBe(sealed);

    const empty = await put(monitor.id, { ...valid, basicAuth: { username: 'qa', password: '' } });
    expect(empty.json()).toMatchObject({ basicAuth: { username: 'qa', hasSecret: false } });
    expect((await sealedOf(monitor.id)).secret).toBeNull();

    await put(monitor.id, { ...valid, basicAuth: { username: 'qa', password: PASSWORD } });
    const off = await put(monitor.id, { ...valid, basicAuth: null });
    expect(off.json()).toMatchObject({ basicAuth: null });
    expect((await sealedOf(monitor.id)).secret).toBeNull();
    // Turned back on without a password, nothing comes back from before.
    const again = await put(monitor.id, { ...valid, basicAuth: { username: 'qa' } });
    expect(again.json()).toMatchObject({ basicAuth: { username: 'qa', hasSecret: false } });

    const audit = await t.inject({ url: '/api/v1/audit?limit=50' });
    expect(audit.body).not.toContain(PASSWORD);
    expect(audit.body).toContain('Updated \\"Shop front\\": basicAuth');
  });

  it('reads a password stored in plain settings before sealing, and seals it on save', async () => {
    const { monitor } = await create({ ...valid, basicAuth: { username: 'old' } });
    const legacy = {
      ...(await sealedOf(monitor.id)).settings,
      basicAuth: { username: 'old', password: PASSWORD },
    };
    await t.database.db
      .updateTable('monitors')
      .set({ config: JSON.stringify(legacy) })
      .where('id', '=', monitor.id)
      .execute();
    const got = await t.inject({ url: `/api/v1/monitors/${monitor.id}` });
    expect(got.body).not.toContain(PASSWORD);
    expect(got.json()).toMatchObject({ basicAuth: { username: 'old', hasSecret: true } });

    const saved = await put(monitor.id, { ...valid, basicAuth: { username: 'old' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ basicAuth: { username: 'old', hasSecret: true } });
    const row = await t.database.db
      .selectFrom('monitors')
      .select(['config', 'secret'])
      .where('id', '=', monitor.id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(PASSWORD);
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(PASSWORD);
  });

  it('keeps the limits and messages of basic auth', async () => {
    expect(await errors({ ...valid, basicAuth: { username: '', password: 'x' } })).toEqual({
      'basicAuth.username': 'Enter the user name',
    });
    expect(
      await errors({ ...valid, basicAuth: { username: 'u', password: 'x'.repeat(201) } }),
    ).toEqual({ 'basicAuth.password': 'At most 200 characters' });
  });

  it('answers 404 for a screenshot that does not exist', async () => {
    const res = await t.inject({ url: '/api/v1/monitors/1/checks/999999/screenshot' });
    expect(res.statusCode).toBe(404);
  });
});

describe.each(engines)('live browser monitors on %s', (engine) => {
  let t: TestApp;
  let sites: BrowserSites;
  let stream: EventStream;

  beforeAll(async () => {
    sites = await startBrowserSites();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    stream = await openEventStream(t.url, undefined, t.owner.headers);
  });
  afterAll(async () => {
    stream.close();
    await t.stop();
    await sites.close();
  });

  const runs = async (id: number, headers = t.owner.headers) => {
    const res = await fetch(`${t.url}/api/v1/monitors/${id}/browser-runs?limit=500`, { headers });
    expect(res.status).toBe(200);
    return BrowserRunList.parse(await res.json()).items;
  };

  const monitorIds = async () => {
    const res = await fetch(`${t.url}/api/v1/monitors`, { headers: t.owner.headers });
    expect(res.status).toBe(200);
    return MonitorList.parse(await res.json()).items.map((m) => m.id);
  };

  /** Resolves once the monitor's n-th result is out (the stream re-reads past events). */
  const result = (id: number, n: number) => {
    const seen = new Set<number>();
    return stream.waitFor((e) => {
      if (e.kind !== 'result' || e.monitorId !== id) return false;
      seen.add(e.result.id);
      return seen.size >= n;
    }, 30_000);
  };

  it('stores measurements and the screenshot of a failing page; viewers can see them', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'browser',
      name: 'Broken script',
      url: `${sites.url}/script-404`,
      retries: 0,
      interval: 60,
      timeout: 20,
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    const got = await result(id, 1);
    expect(got.event).toMatchObject({
      kind: 'result',
      result: { outcome: 'degraded', errorCode: 'browser_resource_failed', httpStatus: 200 },
    });

    const viewer = await t.identity('viewer');
    const [run] = await runs(id, viewer.headers);
    expect(run).toMatchObject({
      outcome: 'degraded',
      errorCode: 'browser_resource_failed',
      hasScreenshot: true,
      failedRequests: [{ url: `${sites.url}/missing.js`, type: 'script', status: 404 }],
    });
    expect(run!.loadMs).toBeGreaterThan(0);
    expect(run!.console.length).toBeGreaterThan(0);

    const shot = await fetch(`${t.url}/api/v1/monitors/${id}/checks/${run!.checkId}/screenshot`, {
      headers: viewer.headers,
    });
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/jpeg');
    expect(shot.headers.get('cache-control')).toMatch(/^private/);
    const bytes = Buffer.from(await shot.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    const anonymous = await fetch(
      `${t.url}/api/v1/monitors/${id}/checks/${run!.checkId}/screenshot`,
    );
    expect(anonymous.status).toBe(401);
    // Another monitor's id does not open this screenshot.
    const other = await fetch(
      `${t.url}/api/v1/monitors/${id + 1000}/checks/${run!.checkId}/screenshot`,
      { headers: viewer.headers },
    );
    expect(other.status).toBe(404);
  });

  it('keeps the screenshot of the latest success only, and retention caps the rest', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'browser',
      name: 'Healthy',
      url: `${sites.url}/healthy`,
      requiredText: 'Welcome',
      retries: 0,
      interval: 60,
      timeout: 20,
    });
    const id = Monitor.parse(created.body).id;
    await result(id, 1);
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await result(id, 2);
    const items = await runs(id);
    expect(items.map((r) => r.outcome)).toEqual(['up', 'up']);
    expect(items.map((r) => r.hasScreenshot)).toEqual([true, false]);
    expect(items[0]!.lcpMs).toBeGreaterThan(0);

    // Failures keep theirs until the per-monitor cap: keep 1 drops the older failure's.
    const broken = await post(t, '/api/v1/monitors', {
      type: 'browser',
      name: 'Throws',
      url: `${sites.url}/throws`,
      retries: 0,
      interval: 60,
      timeout: 20,
    });
    const bid = Monitor.parse(broken.body).id;
    await result(bid, 1);
    await post(t, `/api/v1/monitors/${bid}/check-now`);
    await result(bid, 2);
    // Retention trims every monitor over the cap, not just this one, and an earlier test's
    // failing monitor may have run twice by now on a loaded machine. So every monitor of this
    // file is paused and its runs settled before counting: no planned round lands between
    // counting and trimming.
    const everyId = [id, bid, ...(await monitorIds())];
    for (const m of new Set(everyId)) await post(t, `/api/v1/monitors/${m}/pause`);
    const screenshots = async () => {
      const counts = new Map<number, number>();
      for (const m of new Set(everyId)) {
        counts.set(m, (await runs(m)).filter((r) => r.hasScreenshot).length);
      }
      return counts;
    };
    let settled = JSON.stringify([...(await screenshots())]);
    for (let same = 0; same < 3;) {
      await new Promise((r) => setTimeout(r, 1_000));
      const now = JSON.stringify([...(await screenshots())]);
      same = now === settled ? same + 1 : 0;
      settled = now;
    }
    // Every failure keeps its screenshot.
    const failed = await runs(bid);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed.map((r) => [r.errorCode, r.hasScreenshot])).toEqual(
      failed.map(() => ['browser_js_error', true]),
    );
    let overCap = 0;
    for (const n of (await screenshots()).values()) overCap += Math.max(0, n - 1);
    const trimmed = await trimScreenshots(repositories(t.database), {
      screenshotsKept: 1,
      pauseMs: 0,
    });
    expect(trimmed).toBe(overCap);
    expect((await runs(bid)).map((r) => r.hasScreenshot)).toEqual(failed.map((_, i) => i === 0));
  });

  it('signs in with the sealed password, a legacy plain one, and says when it will not open', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'browser',
      name: 'Members',
      url: `${sites.url}/protected`,
      basicAuth: { username: 'user', password: 'secret' },
      retries: 0,
      interval: 60,
      timeout: 20,
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    expect((await result(id, 1)).event).toMatchObject({
      result: { outcome: 'up', httpStatus: 200 },
    });

    // Saved before passwords were sealed: the plain one in the settings is still sent.
    const monitors = repositories(t.database).monitors;
    const settings = (await monitors.findById(id))!.settings;
    await t.database.db
      .updateTable('monitors')
      .set({
        config: JSON.stringify({
          ...settings,
          basicAuth: { username: 'user', password: 'secret' },
        }),
        secret: null,
      })
      .where('id', '=', id)
      .execute();
    // What a service does after a change: the engine reloads the monitor and checks it now.
    const reload = () => t.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
    reload();
    expect((await result(id, 2)).event).toMatchObject({ result: { outcome: 'up' } });

    // The next save seals it without being told the password again.
    const saved = await fetch(`${t.url}/api/v1/monitors/${id}`, {
      method: 'PUT',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'browser',
        name: 'Members',
        url: `${sites.url}/protected`,
        basicAuth: { username: 'user' },
        retries: 0,
        interval: 60,
        timeout: 20,
      }),
    });
    expect(saved.status).toBe(200);
    const row = await monitors.findById(id);
    expect(JSON.stringify(row!.settings)).not.toContain('secret');
    expect(row!.secret).toMatch(/^v1\./);
    // The save itself reloads and checks the monitor, now with the sealed copy.
    expect((await result(id, 3)).event).toMatchObject({ result: { outcome: 'up' } });

    // Sealed under another key (or damaged), it is not sent: the check says why, without Chromium.
    await t.database.db
      .updateTable('monitors')
      .set({ secret: 'v1.AAAA.AAAA.AAAA' })
      .where('id', '=', id)
      .execute();
    reload();
    const broken = await result(id, 4);
    expect(broken.event).toMatchObject({
      result: { outcome: 'down', errorCode: 'internal_error' },
    });
    expect(JSON.stringify(broken.event)).toContain('could not be decrypted');
  });
});

describe('without Chromium', () => {
  let t: TestApp;
  let sites: BrowserSites;

  beforeAll(async () => {
    sites = await startBrowserSites();
    t = await startTestApp({
      engine: 'sqlite',
      scheduler: true,
      listen: true,
      chromiumPath: '/nonexistent/chromium',
    });
  });
  afterAll(async () => {
    await t.stop();
    await sites.close();
  });

  it('browser monitors show a setup error while HTTP monitors keep working', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const browser = await post(t, '/api/v1/monitors', {
        type: 'browser',
        name: 'Needs Chromium',
        url: `${sites.url}/healthy`,
        retries: 0,
        interval: 60,
      });
      const http = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Plain HTTP',
        url: `${sites.url}/healthy`,
        retries: 0,
      });
      const bid = Monitor.parse(browser.body).id;
      const hid = Monitor.parse(http.body).id;
      const down = await stream.waitFor((e) => e.kind === 'status' && e.monitorId === bid);
      expect(down.event).toMatchObject({ to: 'down', errorCode: 'browser_unavailable' });
      const up = await stream.waitFor((e) => e.kind === 'status' && e.monitorId === hid);
      expect(up.event).toMatchObject({ to: 'up' });
      const list = MonitorList.parse(
        await (await fetch(`${t.url}/api/v1/monitors`, { headers: t.owner.headers })).json(),
      );
      const row = list.items.find((i) => i.id === bid);
      expect(row?.lastCheck?.errorMessage).toContain('PAGEWATCH_CHROMIUM_PATH');
    } finally {
      stream.close();
    }
  });
});
