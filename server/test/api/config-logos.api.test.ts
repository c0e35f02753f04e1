import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { gifBytes, pngBytes, svgBytes } from '../support/images.js';

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A one-page document; `logo` as given (left out when undefined). */
const documentWith = (logo?: string | null) => ({
  version: 1,
  statusPages: [
    {
      key: 'public',
      slug: 'public',
      title: 'Public status',
      ...(logo === undefined ? {} : { logo }),
    },
  ],
});

describe.each(engines)('status page logos in configuration documents on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  const apply = (document: unknown) =>
    t.inject({ method: 'POST', url: '/api/v1/config/apply', payload: { document } });
  const plan = (document: unknown) =>
    t.inject({ method: 'POST', url: '/api/v1/config/plan', payload: { document } });
  const page = async () => {
    const list = await t.inject('/api/v1/status-pages');
    const id = list.json<{ items: { id: number }[] }>().items[0]!.id;
    return (await t.inject(`/api/v1/status-pages/${id}`)).json<{
      id: number;
      logoUrl: string | null;
    }>();
  };
  const exported = async () =>
    (await t.inject('/api/v1/export?format=json')).json<{
      statusPages: { logo?: string | null }[];
    }>().statusPages[0]!;

  it('sets the logo a document carries, serves it, and exports it back', async () => {
    const res = await apply(documentWith(dataUri('image/png', pngBytes)));
    expect(res.statusCode, res.body).toBe(200);
    const { logoUrl } = await page();
    expect(logoUrl).not.toBeNull();
    const logo = await t.inject(logoUrl!);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(pngBytes)).toBe(true);
    expect((await exported()).logo).toBe(dataUri('image/png', pngBytes));
  });

  it('finds nothing to change for the same logo, or a file that leaves the logo out', async () => {
    for (const document of [documentWith(dataUri('image/png', pngBytes)), documentWith()]) {
      const res = await plan(document);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ summary: { update: 0, unchanged: 1 } });
      const again = await apply(document);
      expect(again.json()).toMatchObject({ statusPages: { unchanged: ['public'] } });
    }
    expect((await page()).logoUrl).not.toBeNull();
  });

  it('plans a new logo as a short line (type, size, hash), never the image itself', async () => {
    const res = await plan(documentWith(dataUri('image/gif', gifBytes)));
    expect(res.statusCode, res.body).toBe(200);
    const entry = res
      .json<{ entries: { key: string; action: string; changes: unknown[] }[] }>()
      .entries.find((e) => e.key === 'public');
    expect(entry).toMatchObject({ action: 'update' });
    expect(entry!.changes).toEqual([
      {
        path: 'logo',
        before: expect.stringMatching(/^image\/png, \d+\.\d KiB, sha256:[0-9a-f]{16}$/),
        after: expect.stringMatching(/^image\/gif, \d+\.\d KiB, sha256:[0-9a-f]{16}$/),
      },
    ]);
  });

  it('replaces the logo with another, and removes it for null', async () => {
    expect((await apply(documentWith(dataUri('image/gif', gifBytes)))).statusCode).toBe(200);
    const replaced = await t.inject((await page()).logoUrl!);
    expect(replaced.rawPayload.equals(gifBytes)).toBe(true);
    const removed = await apply(documentWith(null));
    expect(removed.json()).toMatchObject({ statusPages: { updated: ['public'] } });
    expect((await page()).logoUrl).toBeNull();
    expect(await exported()).not.toHaveProperty('logo');
  });

  it('refuses an image that is not what its type says, and an SVG, naming the field', async () => {
    const disguised = await apply(documentWith(dataUri('image/png', gifBytes)));
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json()).toMatchObject({
      errors: [{ path: 'document.statusPages.0.logo', message: expect.stringMatching(/GIF/) }],
    });
    const svg = await apply(documentWith(dataUri('image/svg+xml', svgBytes)));
    expect(svg.statusCode).toBe(400);
    expect(svg.json()).toMatchObject({ errors: [{ path: 'document.statusPages.0.logo' }] });
    expect((await page()).logoUrl).toBeNull();
  });
});
