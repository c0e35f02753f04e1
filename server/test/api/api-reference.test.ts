import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

describe('The API reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite' });
  });
  afterAll(async () => t?.stop());

  it('is public and points Scalar at this server’s document, with its own CSP (no eval, no other host)', async () => {
    const res = await t.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('data-url="/api/v1/openapi.json"');
    const script = /<script src="(\/api\/docs\/standalone\.js\?v=[\d.]+)"><\/script>/.exec(
      res.body,
    );
    expect(script).not.toBeNull();
    expect(res.body).not.toMatch(/https?:\/\//);
    const config = /data-configuration="([^"]+)"/.exec(res.body)?.[1] ?? '';
    expect(JSON.parse(config.replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
    });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).toContain("connect-src 'self';");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('serves the bundled script compressed, cached for a year and revalidated by ETag', async () => {
    const page = await t.app.inject({ url: '/api/docs' });
    const url = /<script src="([^"]+)"><\/script>/.exec(page.body)?.[1] ?? '';
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    const js = zlib.brotliDecompressSync(res.rawPayload);
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js.toString()).toContain('data-configuration');
    const again = await t.app.inject({
      url,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(js)).toBe(true);
  });
});
