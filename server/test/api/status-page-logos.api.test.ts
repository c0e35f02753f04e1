import { StatusPage, type ServerEvent } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { gifBytes, jpegBytes, pngBytes, svgBytes, webpBytes } from '../support/images.js';
import { statusPageApi } from '../support/status-page-api.js';

describe.each(engines)('status page logos, events and monitors on %s', (engine) => {
  let t: TestApp;
  let viewer: Identity;
  let editor: Identity;
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ engine });
    viewer = await t.identity('viewer');
    editor = await t.identity('editor');
    t.hub.subscribe(({ event }) => events.push(event));
  });
  afterAll(async () => t.stop());

  const { send, monitor, create, problem, get } = statusPageApi(
    () => t,
    () => editor,
  );

  describe('logos', () => {
    const upload = (id: number, body: Buffer, type: string) =>
      t.inject({
        method: 'PUT',
        url: `/api/v1/status-pages/${id}/logo`,
        payload: body,
        headers: { ...editor.headers, 'content-type': type },
      });

    it('accepts PNG, JPEG, WebP and GIF, serves it back and removes it', async () => {
      const page = await create();
      for (const [bytes, type] of [
        [jpegBytes, 'image/jpeg'],
        [webpBytes, 'image/webp'],
        [gifBytes, 'image/gif'],
        [pngBytes, 'image/png'],
      ] as const) {
        const res = await upload(page.id, bytes, type);
        expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      }
      const withLogo = await get(page.id);
      expect(withLogo.logoUrl).toMatch(
        new RegExp(`^/api/v1/status-pages/${page.id}/logo\\?v=[0-9a-f]{16}$`),
      );
      const logo = await t.inject({ url: withLogo.logoUrl!, headers: viewer.headers });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.rawPayload.equals(pngBytes)).toBe(true);

      const removed = await t.inject({
        method: 'DELETE',
        url: `/api/v1/status-pages/${page.id}/logo`,
        headers: editor.headers,
      });
      expect(StatusPage.parse(removed.json()).logoUrl).toBeNull();
      expect((await t.inject(`/api/v1/status-pages/${page.id}/logo`)).statusCode).toBe(404);
    });

    it('answers 413 beyond 256 KiB', async () => {
      const page = await create();
      const big = Buffer.concat([pngBytes, Buffer.alloc(256 * 1024)]);
      const p = await problem(await upload(page.id, big, 'image/png'), 413);
      expect(p).toMatchObject({
        type: 'payload_too_large',
        detail: 'Request bodies are limited to 256 KiB',
      });
    });

    it('refuses SVG and bytes that are not the type they claim, saying why', async () => {
      const page = await create();
      const svg = await problem(await upload(page.id, svgBytes, 'image/svg+xml'), 400);
      expect(svg.detail).toMatch(/SVG logos are not accepted/);
      expect(svg.errors?.[0]?.path).toBe('logo');
      const disguised = await problem(await upload(page.id, svgBytes, 'image/png'), 400);
      expect(disguised.detail).toMatch(/SVG/);
      const mismatch = await problem(await upload(page.id, jpegBytes, 'image/png'), 400);
      expect(mismatch.detail).toMatch(/JPEG image, not image\/png/);
      const junk = await problem(
        await upload(page.id, Buffer.from('hello world'), 'image/gif'),
        400,
      );
      expect(junk.detail).toMatch(/not an image we accept/);
      const asJson = await problem(
        await send('PUT', `/api/v1/status-pages/${page.id}/logo`, { logo: 'x' }),
        400,
      );
      expect(asJson.detail).toMatch(/Content-Type image\/png/);
      expect((await get(page.id)).logoUrl).toBeNull();
    });
  });

  it('publishes a status-page event after every change', async () => {
    events.length = 0;
    const page = await create();
    await send('PUT', `/api/v1/status-pages/${page.id}`, {
      title: 'Renamed',
      slug: page.slug,
      published: true,
    });
    await t.inject({
      method: 'PUT',
      url: `/api/v1/status-pages/${page.id}/logo`,
      payload: pngBytes,
      headers: { ...editor.headers, 'content-type': 'image/png' },
    });
    await t.inject({
      method: 'DELETE',
      url: `/api/v1/status-pages/${page.id}/logo`,
      headers: editor.headers,
    });
    await t.inject({
      method: 'DELETE',
      url: `/api/v1/status-pages/${page.id}`,
      headers: editor.headers,
    });
    const mine = events.filter((e) => e.kind === 'status-page' && e.pageId === page.id);
    expect(mine.map((e) => e.kind === 'status-page' && e.change)).toEqual([
      'created',
      'updated',
      'updated',
      'updated',
      'deleted',
    ]);
  });

  it('drops a deleted monitor from every page', async () => {
    const [keep, gone] = [await monitor('Keep'), await monitor('Gone')];
    const page = await create({
      sections: [{ title: 'All', components: [{ monitorId: gone.id }, { monitorId: keep.id }] }],
    });
    const del = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${gone.id}` });
    expect(del.statusCode, del.body).toBe(204);
    expect((await get(page.id)).sections[0]?.components.map((c) => c.monitorName)).toEqual([
      'Keep',
    ]);
  });
});
