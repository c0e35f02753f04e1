import { createHash } from 'node:crypto';
import { badgeStyles, Monitor, MonitorBadges, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, monitorInput } from '../support/factories.js';
import { insertStatusPage, updateStatusPage } from '../support/status-pages.js';

const anonymous = { authorization: '' };

describe.each(engines)('badges on %s', (engine) => {
  let t: TestApp;
  let shown: Monitor;
  let slug: string;

  async function monitor(name: string) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ url, headers: { ...anonymous, ...headers } });

  beforeAll(async () => {
    t = await startTestApp({ engine, config: { publicUrl: 'https://status.example.com' } });
    shown = await monitor('internal-api-name');
    await repositories(t.database).results.writeBatch([
      {
        monitorId: shown.id,
        at: Date.now() - 1000,
        run: checkRun(),
        status: 'up',
        failures: 0,
        recent: [],
        flip: { from: 'pending', to: 'up' },
      },
    ]);
    slug = `embed-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      title: 'Acme status',
      sections: [{ components: [{ monitorId: shown.id, displayName: 'Public API' }] }],
    });
  });
  afterAll(async () => t.stop());

  describe('embedding on other sites', () => {
    it('lets any site load a badge, cached by browsers and shared caches alike', async () => {
      const status = await get(`/badge/${shown.id}/status.svg`);
      expect(status.statusCode).toBe(200);
      expect(status.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(status.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(status.headers['cache-control']).toBe(
        'public, max-age=60, s-maxage=60, stale-while-revalidate=60',
      );
      expect(status.headers.etag).toMatch(/^W\/"[\w-]{22}"$/);
      expect(status.headers['last-modified']).toBeTruthy();
      const uptime = await get(`/badge/${shown.id}/uptime-30d.svg`);
      expect(uptime.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(uptime.headers['cache-control']).toBe(
        'public, max-age=300, s-maxage=300, stale-while-revalidate=300',
      );
      const again = await get(`/badge/${shown.id}/status.svg`, {
        'if-none-match': String(status.headers.etag),
      });
      expect(again.statusCode).toBe(304);
    });

    it('gives a badge a policy of its own: nothing loads or runs, its stylesheet applies', async () => {
      const flat = await get(`/badge/${shown.id}/status.svg`);
      expect(flat.headers['content-security-policy']).toBe("default-src 'none'");
      const social = await get(`/badge/${shown.id}/status.svg?style=social`);
      const style = /<style>([^<]*)<\/style>/.exec(social.body)?.[1] ?? '';
      expect(style).not.toBe('');
      const hash = createHash('sha256').update(style).digest('base64');
      expect(social.headers['content-security-policy']).toBe(
        `default-src 'none'; style-src 'sha256-${hash}'`,
      );
    });

    it("lets any site read the page's JSON and feeds by fetch(), without credentials", async () => {
      for (const path of ['/index.json', '/feed.atom', '/feed.rss']) {
        const res = await get(`/status/${slug}${path}`, { origin: 'https://blog.example.org' });
        expect(res.statusCode, path).toBe(200);
        expect(res.headers['access-control-allow-origin'], path).toBe('*');
        expect(res.headers['access-control-allow-credentials'], path).toBeUndefined();
        expect(res.headers['cross-origin-resource-policy'], path).toBe('cross-origin');
      }
    });

    it('keeps every other response to this site', async () => {
      for (const url of [
        `/status/${slug}`,
        `/status/${slug}/history`,
        '/api/v1/openapi.json',
        '/healthz',
        '/api/v1/monitors',
      ]) {
        const res = await get(url);
        expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
        expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      }
    });
  });

  describe('styles and options', () => {
    it('draws every shields.io style, each a different picture with its own ETag', async () => {
      const tags = new Set<string>();
      for (const style of badgeStyles) {
        const res = await get(`/badge/${shown.id}/status.svg?style=${style}`);
        expect(res.statusCode, style).toBe(200);
        expect(res.body, style).toMatch(/^<svg /);
        tags.add(String(res.headers.etag));
      }
      expect(tags.size).toBe(badgeStyles.length);
    });

    it('replaces the label with one given, escaped, and keeps the figure', async () => {
      const label = encodeURIComponent('API <b>"prod"</b> & co');
      const res = await get(`/badge/${shown.id}/uptime-24h.svg?label=${label}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('API &lt;b&gt;&quot;prod&quot;&lt;/b&gt; &amp; co');
      expect(res.body).not.toContain('<b>');
      expect(res.body).not.toContain('Public API');
      expect(res.body).toContain('100%');
      const bare = await get(`/badge/${shown.id}/status.svg?label=`);
      expect(bare.body).toContain('aria-label="up"');
    });

    it('takes a label colour as hex or a badge colour name', async () => {
      const hex = await get(`/badge/${shown.id}/status.svg?labelColor=123456`);
      expect(hex.body).toContain('fill="#123456"');
      expect((await get(`/badge/${shown.id}/status.svg?labelColor=blue`)).statusCode).toBe(200);
    });

    it.each([
      ['style=neon', 'style'],
      [`label=${'x'.repeat(61)}`, 'label'],
      ['label=%01bell', 'label'],
      ['labelColor=%23ff0000', 'labelColor'],
      ['labelColor=url(x)', 'labelColor'],
    ])('refuses %s with a problem naming the option', async (query, path) => {
      const res = await get(`/badge/${shown.id}/status.svg?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      const problem = Problem.parse(res.json());
      expect(problem.type).toBe('validation_failed');
      expect(problem.errors?.map((e) => e.path)).toEqual([path]);
    });

    it('ignores parameters it does not know, so cache-busters keep working', async () => {
      expect((await get(`/badge/${shown.id}/status.svg?v=2`)).statusCode).toBe(200);
    });
  });

  describe('only for monitors on a published page', () => {
    it('answers 404 for a monitor on no page, on a draft page, or unknown', async () => {
      const alone = await monitor('alone');
      const drafted = await monitor('drafted');
      await insertStatusPage(t.database, t.hub, {
        published: false,
        sections: [{ components: [{ monitorId: drafted.id }] }],
      });
      for (const id of [alone.id, drafted.id, 999_999]) {
        for (const file of ['status.svg', 'uptime-7d.svg', 'status.svg?style=social']) {
          const res = await get(`/badge/${id}/${file}`);
          expect(res.statusCode, `${id}/${file}`).toBe(404);
          expect(res.body).not.toContain('drafted');
        }
      }
    });

    it('appears when its page is published and goes when it is unpublished', async () => {
      const later = await monitor('later');
      const pageId = await insertStatusPage(t.database, t.hub, {
        published: false,
        sections: [{ components: [{ monitorId: later.id, displayName: 'Later' }] }],
      });
      expect((await get(`/badge/${later.id}/status.svg`)).statusCode).toBe(404);
      await updateStatusPage(t.database, t.hub, pageId, { published: true });
      expect((await get(`/badge/${later.id}/status.svg`)).statusCode).toBe(200);
      await updateStatusPage(t.database, t.hub, pageId, { published: false });
      expect((await get(`/badge/${later.id}/status.svg?style=plastic`)).statusCode).toBe(404);
    });
  });

  describe('GET /api/v1/monitors/:id/badges', () => {
    it('tells the builder the public URL, the label and the pages showing the monitor', async () => {
      const viewer = await t.identity('viewer');
      const res = await t.inject({
        url: `/api/v1/monitors/${shown.id}/badges`,
        headers: viewer.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(MonitorBadges.parse(res.json())).toEqual({
        publicUrl: 'https://status.example.com',
        label: 'Public API',
        pages: [{ id: expect.any(Number), slug, title: 'Acme status' }],
      });
    });

    it('lists no pages for a monitor no published page shows, and 404s an unknown one', async () => {
      const alone = await monitor('on its own');
      const res = await t.inject({ url: `/api/v1/monitors/${alone.id}/badges` });
      expect(res.json()).toEqual({
        publicUrl: 'https://status.example.com',
        label: null,
        pages: [],
      });
      expect((await t.inject({ url: '/api/v1/monitors/999999/badges' })).statusCode).toBe(404);
    });
  });
});
