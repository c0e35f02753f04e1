import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;
  const bundle = `console.log(${JSON.stringify('pagewatch '.repeat(500))});`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Pagewatch</title><div id="root"></div>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), bundle);
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ engine: 'sqlite', webDist: dist });
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache, so a new deploy is picked up at once', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(bundle);
  });

  it('revalidates unhashed files such as the favicon', async () => {
    const res = await t.app.inject({ url: '/favicon.svg' });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('compresses with brotli or gzip when the client accepts it', async () => {
    const br = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    const gz = await t.app.inject({
      url: '/api/v1/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString()).openapi).toBe('3.1.0');
  });

  it('answers client-side routes with index.html so a reload lands on the right screen', async () => {
    for (const url of ['/monitors/42', '/monitors/new', '/settings/general?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('answers HEAD on client-side routes like GET', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/monitors/42' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it('answers a missing asset with 404, never index.html served as script', async () => {
    for (const url of ['/assets/index-old999.js', '/missing.css']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
    }
  });

  it('never serves a file outside the web app folder', async () => {
    for (const url of [
      '/assets/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/hostname.txt',
      '/..%2f..%2f..%2fetc%2fpasswd.js',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toMatch(/root:x:0:0/);
      expect([200, 403, 404], url).toContain(res.statusCode);
    }
  });

  it('picks up a rebuilt index.html without a restart', async () => {
    const file = path.join(dist, 'index.html');
    const before = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, before.replace('<title>Pagewatch</title>', '<title>Rebuilt</title>'));
    try {
      expect((await t.app.inject({ url: '/' })).body).toContain('<title>Rebuilt</title>');
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  it('keeps unknown API paths and non-GET requests as problem+json 404s', async () => {
    const api = await t.app.inject({ url: '/api/v1/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/problem\+json/);
    const post = await t.app.inject({ method: 'POST', url: '/monitors/42' });
    expect(post.statusCode).toBe(404);
  });
});
