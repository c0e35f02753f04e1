import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Monitor, type MonitorStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { CheckRun } from '../../src/domain/check-run.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, maintenanceInput, monitorInput } from '../support/factories.js';
import { insertStatusPage, updateStatusPage } from '../support/status-pages.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const anonymous = { authorization: '' };

describe.each(engines)('public status pages on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;
  let clock = Date.now();

  beforeAll(async () => {
    t = await startTestApp({ engine });
    repos = repositories(t.database);
  });
  afterAll(async () => t.stop());

  async function monitor(overrides: Parameters<typeof monitorInput>[0] = {}) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput(overrides)),
    });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  /** Records a check as the engine does, announcing the flip when the status changes. */
  async function check(id: number, status: MonitorStatus, from: MonitorStatus, run?: CheckRun) {
    clock += 1000;
    const flip = status === from ? null : { from, to: status };
    await repos.results.writeBatch([
      {
        monitorId: id,
        at: clock,
        run: run ?? (status === 'down' ? downRun() : checkRun()),
        status,
        failures: status === 'down' ? 1 : 0,
        recent: [],
        flip,
      },
    ]);
    if (flip)
      t.hub.publish({
        kind: 'status',
        monitorId: id,
        ...flip,
        at: new Date(clock).toISOString(),
        errorCode: null,
        message: null,
      });
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ url, headers: { ...anonymous, ...headers } });

  async function declare(monitorIds: number[], title: string, message: string, isPublic = true) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json({ title, message, public: isPublic, monitorIds }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }

  it('serves a published page as complete HTML with a strict CSP and no inline script', async () => {
    const api = await monitor({ name: 'Payments API' });
    await check(api.id, 'up', 'pending');
    const slug = `shop-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      title: 'Shop status',
      sections: [{ title: 'Core', components: [{ monitorId: api.id, displayName: 'Payments' }] }],
    });
    const res = await get(`/status/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('All systems operational');
    expect(res.body).toContain('>Payments</h3>');
    expect(res.body).not.toContain('Payments API');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc="\/status\/assets\/enhance\.js\?v=)/);
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=60');
    expect(res.headers.vary).toBe('Accept-Encoding');

    const script = await get(res.body.match(/src="([^"]+enhance[^"]+)"/)?.[1] ?? '');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown and unpublished pages with the same 404 page', async () => {
    const m = await monitor();
    await insertStatusPage(t.database, t.hub, {
      slug: `draft-${engine}`,
      title: 'Secret launch',
      published: false,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const hidden = await get(`/status/draft-${engine}`);
    const unknown = await get('/status/no-such-page');
    expect(hidden.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(hidden.body).toBe(unknown.body);
    expect(hidden.headers['content-type']).toContain('text/html');
    for (const path of [
      '/history',
      '/index.json',
      '/feed.atom',
      '/feed.rss',
      '/incidents/1',
      '/logo',
    ])
      expect((await get(`/status/draft-${engine}${path}`)).statusCode).toBe(404);
    expect((await get(`/badge/${m.id}/status.svg`)).statusCode).toBe(404);
  });

  it('serves a page on its custom domain at / and leaves the app host to the app', async () => {
    const m = await monitor({ name: 'Edge' });
    const domain = `status.${engine}.example.com`;
    const id = await insertStatusPage(t.database, t.hub, {
      slug: `domain-${engine}`,
      title: 'Edge network',
      customDomain: domain,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const home = await get('/', { host: domain });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Edge network');
    expect(home.body).toContain('href="/history"');
    expect((await get('/history', { host: domain })).statusCode).toBe(200);
    expect((await get('/index.json', { host: domain })).json()).toMatchObject({
      title: 'Edge network',
    });
    expect((await get('/', { host: 'localhost' })).body).not.toContain('Edge network');
    // Unpublishing takes the domain away at once.
    await updateStatusPage(t.database, t.hub, id, { published: false });
    expect((await get('/', { host: domain })).body).not.toContain('Edge network');
  });

  it('answers 304 to a current ETag or date and serves br and gzip bodies', async () => {
    const m = await monitor();
    await check(m.id, 'up', 'pending');
    const slug = `etag-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const first = await get(`/status/${slug}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect((await get(`/status/${slug}`, { 'if-none-match': etag })).statusCode).toBe(304);
    const since = String(first.headers['last-modified']);
    expect((await get(`/status/${slug}`, { 'if-modified-since': since })).statusCode).toBe(304);
    expect((await get(`/status/${slug}`, { 'if-none-match': '"other"' })).statusCode).toBe(200);

    const br = await get(`/status/${slug}`, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
    const gz = await get(`/status/${slug}`, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(first.body);
    expect(first.headers['content-encoding']).toBeUndefined();
  });

  it('re-renders when a monitor flips and when an incident gets a public update', async () => {
    const m = await monitor();
    await check(m.id, 'up', 'pending');
    const slug = `live-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const before = await get(`/status/${slug}`);
    expect(before.body).toContain('All systems operational');
    // The request that rendered says what the render cost; the ones served from memory don't.
    expect(before.headers['server-timing']).toMatch(/^db;dur=\d+\.\d\d, render;dur=\d+\.\d\d$/);
    expect((await get(`/status/${slug}`)).headers['server-timing']).toBeUndefined();
    await check(m.id, 'down', 'up');
    const after = await get(`/status/${slug}`, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Major outage');
    expect(after.headers['server-timing']).toMatch(/^db;dur=/);

    const id = await declare([m.id], 'Checkout errors', 'We are looking into it');
    expect((await get(`/status/${slug}`)).body).toContain('Checkout errors');
    const update = await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${id}/updates`,
      ...json({ message: 'A fix is rolling out', state: 'identified', public: true }),
    });
    expect(update.statusCode, update.body).toBe(201);
    const page = await get(`/status/${slug}`);
    expect(page.body).toContain('A fix is rolling out');
    const one = await get(`/status/${slug}/incidents/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('We are looking into it');
  });

  it('draws badges in the status colours, labelled as the page names the monitor', async () => {
    const up = await monitor({ name: 'internal-api-name' });
    const down = await monitor();
    const off = await monitor();
    await check(up.id, 'up', 'pending');
    await check(down.id, 'down', 'pending');
    await insertStatusPage(t.database, t.hub, {
      slug: `badges-${engine}`,
      sections: [
        {
          components: [
            { monitorId: up.id, displayName: 'Public API' },
            { monitorId: down.id, displayName: 'Worker' },
          ],
        },
      ],
    });
    const green = await get(`/badge/${up.id}/status.svg`);
    expect(green.statusCode).toBe(200);
    expect(green.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(green.headers['cache-control']).toBe(
      'public, max-age=60, s-maxage=60, stale-while-revalidate=60',
    );
    expect(green.headers.etag).toBeTruthy();
    expect(green.body).toContain('Public API');
    expect(green.body).not.toContain('internal-api-name');
    expect(green.body).toContain('#2da44e');
    expect((await get(`/badge/${down.id}/status.svg`)).body).toContain('#cf222e');
    const uptime = await get(`/badge/${up.id}/uptime-24h.svg`);
    expect(uptime.headers['cache-control']).toBe(
      'public, max-age=300, s-maxage=300, stale-while-revalidate=300',
    );
    expect(uptime.body).toContain('100%');
    expect((await get(`/badge/${down.id}/uptime-7d.svg`)).body).toContain('0%');
    expect((await get(`/badge/${off.id}/status.svg`)).statusCode).toBe(404);
    expect((await get(`/badge/${up.id}/uptime-1y.svg`)).statusCode).toBe(404);
    const again = await get(`/badge/${up.id}/status.svg`, {
      'if-none-match': String(green.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it('shows maintenance as the component status and lists the window', async () => {
    const m = await monitor();
    await check(m.id, 'up', 'pending');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      ...json(
        maintenanceInput({
          title: 'Database upgrade',
          timezone: 'UTC',
          scope: { kind: 'monitors', monitorIds: [m.id] },
          schedule: {
            kind: 'once',
            startsAt: new Date(Date.now() - 60_000).toISOString(),
            endsAt: new Date(Date.now() + 3_600_000).toISOString(),
          },
        }),
      ),
    });
    expect(res.statusCode, res.body).toBe(201);
    const slug = `maint-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const page = await get(`/status/${slug}`);
    expect(page.body).toContain('Maintenance in progress');
    expect(page.body).toContain('Database upgrade');
    expect(page.body).toContain('Under maintenance');
  });

  it('serves valid Atom and RSS feeds of incidents with public updates only', async () => {
    const m = await monitor();
    const slug = `feeds-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      title: 'Feeds & more',
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    await declare([m.id], 'Public & visible', 'Seen by all');
    await declare([m.id], 'Internal only', 'Nobody outside sees this', false);
    const atom = await get(`/status/${slug}/feed.atom`);
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(atom.body).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
    );
    // Titles are HTML (type="html") escaped as XML: a reader shows "Public & visible".
    expect(atom.body).toContain('<title type="html">Public &amp;amp; visible</title>');
    expect(atom.body).toContain('<title type="html">Feeds &amp;amp; more incidents</title>');
    expect(atom.body).not.toContain('Internal only');
    const rss = await get(`/status/${slug}/feed.rss`);
    expect(rss.body).toContain('<rss version="2.0"');
    expect(rss.body).toContain('Seen by all');
    expect(rss.body).not.toContain('Nobody outside');
  });

  it('previews a draft and a saved unpublished page for editors only', async () => {
    const m = await monitor({ name: 'Preview target' });
    const draft = {
      slug: 'preview-draft',
      title: 'Draft title',
      sections: [{ title: 'S', components: [{ monitorId: m.id, displayName: '' }] }],
    };
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages/preview',
      ...json(draft),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Draft title');
    expect(res.body).toContain('Preview target');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    const viewer = await t.identity('viewer');
    const refused = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages/preview',
      payload: JSON.stringify(draft),
      headers: { ...viewer.headers, 'content-type': 'application/json' },
    });
    expect(refused.statusCode).toBe(403);
    const missing = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages/preview',
      ...json({ ...draft, sections: [{ components: [{ monitorId: 999_999 }] }] }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      errors: [{ path: 'sections.0.components.0.monitorId', message: 'No monitor has this id' }],
    });

    const id = await insertStatusPage(t.database, t.hub, {
      title: 'Unpublished draft',
      published: false,
      sections: [{ components: [{ monitorId: m.id }] }],
    });
    const saved = await t.inject({ url: `/api/v1/status-pages/${id}/preview` });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Unpublished draft');
    expect((await get(`/api/v1/status-pages/${id}/preview`)).statusCode).toBe(401);
  });

  it('serves the logo with its type, cached forever under its hash', async () => {
    const bytes = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const slug = `logo-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      logo: { bytes, type: 'image/png', hash: 'abc123' },
    });
    const page = await get(`/status/${slug}`);
    expect(page.body).toContain(`src="/status/${slug}/logo?v=abc123"`);
    const logo = await get(`/status/${slug}/logo?v=abc123`);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(logo.rawPayload.equals(bytes)).toBe(true);
    expect((await get(`/status/${slug}/logo?v=old`)).headers['cache-control']).toBe(
      'public, max-age=300',
    );
  });

  it('shows only incidents of its own monitors and a 90-day history, and its JSON is the public view', async () => {
    const mine = await monitor({ name: 'Mine' });
    const other = await monitor({ name: 'Someone else' });
    const slug = `history-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ title: 'Only', components: [{ monitorId: mine.id }] }],
    });
    const foreign = await declare([other.id], 'Not on this page', 'Elsewhere');
    const own = await declare([mine.id], 'On this page', 'Here');
    expect((await get(`/status/${slug}/incidents/${foreign}`)).statusCode).toBe(404);
    expect((await get(`/status/${slug}/incidents/${own}`)).statusCode).toBe(200);
    const history = await get(`/status/${slug}/history`);
    expect(history.statusCode).toBe(200);
    expect(history.body).toContain('Uptime, last 90 days');
    expect(history.body).toContain('On this page');
    expect(history.body).not.toContain('Not on this page');

    const view = (await get(`/status/${slug}/index.json`)).json<Record<string, unknown>>();
    expect(Object.keys(view).sort()).toEqual(
      [
        'activeIncidents',
        'descriptionHtml',
        'footer',
        'generatedAt',
        'logoUrl',
        'maintenance',
        'pastIncidents',
        'sections',
        'slug',
        'status',
        'subscribeUrl',
        'theme',
        'timeZone',
        'title',
      ].sort(),
    );
    const sections = view.sections as { components: Record<string, unknown>[] }[];
    expect(Object.keys(sections[0]?.components[0] ?? {}).sort()).toEqual(
      ['days', 'description', 'name', 'status', 'uptime'].sort(),
    );
  });

  it('draws the last 24 hours of response time from the hour rollups when the page asks', async () => {
    const timed = await monitor({ name: 'Timed' });
    const hour = 3_600_000;
    const now = Date.now();
    const thisHour = Math.floor(now / hour) * hour;
    const writes = [
      { at: thisHour - 30 * hour, ms: 999 }, // before the chart
      { at: thisHour - 23 * hour + 60_000, ms: 100 },
      { at: thisHour - 23 * hour + 120_000, ms: 200 },
      { at: thisHour - 2 * hour + 60_000, ms: 400 },
    ];
    await repos.results.writeBatch(
      writes.map((w) => ({
        monitorId: timed.id,
        at: w.at,
        run: checkRun({ latencyMs: w.ms }),
        status: 'up' as const,
        failures: 0,
        recent: [],
        flip: null,
      })),
    );
    const slug = `chart-${engine}`;
    const pageId = await insertStatusPage(t.database, t.hub, {
      slug,
      show: { latencyChart: true },
      sections: [{ title: 'Timed', components: [{ monitorId: timed.id, displayName: 'Web' }] }],
    });
    const view = (await get(`/status/${slug}/index.json`)).json<{
      sections: { components: { responseTimes: { hours: (number | null)[] } }[] }[];
    }>();
    const chart = view.sections[0]!.components[0]!.responseTimes;
    expect(chart).toEqual({
      hours: [150, ...new Array<null>(20).fill(null), 400, null, null],
      avgMs: 233,
      maxMs: 400,
    });
    const html = (await get(`/status/${slug}`)).body;
    expect(html).toContain(
      'aria-label="Response time of Web, last 24 hours: average 233 ms, slowest hour 400 ms"',
    );
    await t.database.db
      .updateTable('status_pages')
      .set({
        show: JSON.stringify({ uptimeBars: true, latencyChart: false, currentLatency: false }),
      })
      .where('id', '=', pageId)
      .execute();
    t.hub.publish({ kind: 'status-page', change: 'updated', pageId });
    expect((await get(`/status/${slug}`)).body).not.toContain('Response time of Web');
  });
});
