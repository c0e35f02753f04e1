import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { insertStatusPage } from '../support/status-pages.js';
import { anonymous, jsonAs, login, sessionFor } from './helpers.js';

const viaTls: Record<string, string> = { 'x-forwarded-proto': 'https' };

/** The frame-ancestors sources of an answer's CSP. */
const frameAncestors = (res: LightMyRequestResponse) =>
  /frame-ancestors ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]?.trim();

/** Cookies an answer sets, by name, as raw Set-Cookie lines. */
const setCookies = (res: LightMyRequestResponse) =>
  new Map(
    [res.headers['set-cookie'] ?? []].flat().map((line) => [line.split('=')[0]!, line] as const),
  );

describe('security headers and the session cookie', () => {
  let t: TestApp;
  let dist: string;
  let pageSlug: string;
  let pageId: number;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1);');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js.map'), '{"version":3}');
    // Behind a TLS-terminating proxy, as PAGEWATCH_TRUST_PROXY describes.
    t = await startTestApp({ engine: 'sqlite', webDist: dist, config: { trustProxy: true } });
    pageSlug = 'acme-headers';
    pageId = await insertStatusPage(t.database, t.hub, { slug: pageSlug, published: true });
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('API answers are never stored: authenticated, anonymous and failed alike', async () => {
    const session = await sessionFor(t, t.owner.userId);
    const answers = {
      'with an API key': await t.inject({ url: '/api/v1/monitors' }),
      'with a session': await t.inject({ url: '/api/v1/monitors', headers: session.cookie }),
      'refused (401)': await t.inject({ url: '/api/v1/monitors', headers: anonymous }),
      'unknown (404)': await t.inject({ url: '/api/v1/nothing-here' }),
      'public, no caching chosen': await t.inject({
        url: '/api/v1/auth/status',
        headers: anonymous,
      }),
    };
    for (const [label, res] of Object.entries(answers))
      expect(res.headers['cache-control'], label).toBe('no-store');
    // Outside the API, routes keep their own caching.
    const html = await t.inject({ url: '/', headers: anonymous });
    expect(html.headers['cache-control']).toBe('no-cache');
  });

  it('signing out answers Clear-Site-Data for cache, cookies and storage', async () => {
    for (const url of ['/api/v1/auth/logout', '/api/v1/auth/logout-all']) {
      const s = await sessionFor(t, t.owner.userId);
      const res = await t.inject({ method: 'POST', url, headers: s.headers });
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['clear-site-data'], url).toBe('"cache", "cookies", "storage"');
    }
  });

  it('every answer denies powerful features with Permissions-Policy', async () => {
    for (const url of ['/api/v1/monitors', '/', `/status/${pageSlug}`, '/healthz']) {
      const policy = String((await t.inject({ url })).headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
        expect(policy, url).toContain(`${feature}=()`);
      expect(policy).toContain('browsing-topics=()');
    }
  });

  it('X-Frame-Options says what frame-ancestors says, route by route', async () => {
    const answers = [
      await t.inject({ url: '/api/v1/monitors' }),
      await t.inject({ url: '/', headers: anonymous }),
      await t.inject({ url: `/status/${pageSlug}`, headers: anonymous }),
      await t.inject({ url: '/api/v1/no-such-thing' }),
    ];
    for (const res of answers) {
      expect(frameAncestors(res)).toBe("'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    // The editor's preview is framed by the app itself.
    const preview = await t.inject({ url: `/api/v1/status-pages/${pageId}/preview` });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(frameAncestors(preview)).toBe("'self'");
    expect(preview.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('over TLS the session cookie is __Host- prefixed, Secure, Path=/ and host-only', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs({ ...anonymous, ...viaTls }, { email: t.owner.email, password: t.owner.password }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const line = setCookies(res).get('__Host-pw_session');
    expect(line).toBeDefined();
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).not.toMatch(/Domain=/i);
    expect(setCookies(res).has('pw_session')).toBe(false);

    const token = line!.split(';')[0]!.slice('__Host-pw_session='.length);
    const me = (cookie: string, headers = viaTls) =>
      t.inject({ url: '/api/v1/auth/me', headers: { cookie, ...headers } });
    expect((await me(`__Host-pw_session=${token}`)).statusCode).toBe(200);
    // Each scheme reads its own name only: a plain cookie could have been planted over http.
    expect((await me(`pw_session=${token}`)).statusCode).toBe(401);
    expect((await me(`__Host-pw_session=${token}`, {})).statusCode).toBe(401);
  });

  it('over plain http the cookie keeps its plain name, without Secure; sign-out clears both', async () => {
    const s = await login(t, t.owner.email, t.owner.password);
    const out = await t.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers });
    const cleared = setCookies(out);
    for (const name of ['pw_session', '__Host-pw_session'])
      expect(cleared.get(name), name).toMatch(/Expires=Thu, 01 Jan 1970/);
    const again = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: t.owner.email, password: t.owner.password }),
    });
    const line = setCookies(again).get('pw_session');
    expect(line).toBeDefined();
    expect(line).not.toMatch(/; Secure/i);
  });

  it('publishes no source maps', async () => {
    const js = await t.inject({ url: '/assets/index-abc.js', headers: anonymous });
    expect(js.statusCode).toBe(200);
    expect(js.body).not.toContain('sourceMappingURL');
    const map = await t.inject({ url: '/assets/index-abc.js.map', headers: anonymous });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('"version"');
  });

  it('reports no authentication timing outside development', async () => {
    const res = await t.inject({ url: '/api/v1/monitors' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['server-timing'] ?? '')).not.toMatch(/auth/);
    const dev = await startTestApp({ engine: 'sqlite', config: { development: true } });
    try {
      const timed = await dev.inject({ url: '/api/v1/monitors' });
      expect(String(timed.headers['server-timing'])).toMatch(/^auth;dur=\d+\.\d{3}$/);
    } finally {
      await dev.stop();
    }
  });
});
