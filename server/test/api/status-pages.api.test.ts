import { StatusPage, StatusPageList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { pngBytes } from '../support/images.js';
import { slugOf, statusPageApi } from '../support/status-page-api.js';

describe.each(engines)('status pages API on %s', (engine) => {
  let t: TestApp;
  let viewer: Identity;
  let editor: Identity;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    viewer = await t.identity('viewer');
    editor = await t.identity('editor');
  });
  afterAll(async () => t.stop());

  const { send, monitor, create, problem, get } = statusPageApi(
    () => t,
    () => editor,
  );

  it('creates, reads, replaces and deletes a page, keeping section and component order', async () => {
    const [api, web, db] = [await monitor('API'), await monitor('Web'), await monitor('DB')];
    const page = await create({
      title: 'Acme status',
      description: 'All **systems**',
      sections: [
        {
          title: 'Front',
          components: [{ monitorId: web.id }, { monitorId: api.id, displayName: 'Public API' }],
        },
        { title: 'Back', components: [{ monitorId: db.id, description: 'Primary' }] },
      ],
      theme: { mode: 'dark', accent: '#112233' },
      published: true,
    });
    expect(page.sections).toEqual([
      {
        title: 'Front',
        components: [
          {
            monitorId: web.id,
            displayName: '',
            description: '',
            showLocations: false,
            monitorName: 'Web',
          },
          {
            monitorId: api.id,
            displayName: 'Public API',
            description: '',
            showLocations: false,
            monitorName: 'API',
          },
        ],
      },
      {
        title: 'Back',
        components: [
          {
            monitorId: db.id,
            displayName: '',
            description: 'Primary',
            showLocations: false,
            monitorName: 'DB',
          },
        ],
      },
    ]);
    expect(page).toMatchObject({ published: true, theme: { mode: 'dark' }, logoUrl: null });
    expect(await get(page.id)).toEqual(page);

    const replaced = await send('PUT', `/api/v1/status-pages/${page.id}`, {
      title: 'Acme status',
      slug: page.slug,
      sections: [
        { title: 'Back', components: [{ monitorId: db.id }, { monitorId: web.id }] },
        { title: 'Front', components: [{ monitorId: api.id }] },
      ],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const order = (await get(page.id)).sections.map((s) => [
      s.title,
      s.components.map((c) => c.monitorName),
    ]);
    expect(order).toEqual([
      ['Back', ['DB', 'Web']],
      ['Front', ['API']],
    ]);

    const listed = StatusPageList.parse(
      (await t.inject({ url: '/api/v1/status-pages', headers: viewer.headers })).json(),
    );
    expect(listed.items.find((p) => p.id === page.id)).toMatchObject({
      slug: page.slug,
      published: false,
      componentCount: 3,
      subscriberCount: 0,
    });

    const del = await t.inject({
      method: 'DELETE',
      url: `/api/v1/status-pages/${page.id}`,
      headers: editor.headers,
    });
    expect(del.statusCode).toBe(204);
    expect((await t.inject({ url: `/api/v1/status-pages/${page.id}` })).statusCode).toBe(404);
  });

  it('counts only confirmed subscribers', async () => {
    const page = await create();
    const row = (state: string, i: number) => ({
      page_id: page.id,
      kind: 'email',
      address: `s${i}@example.com`,
      state,
      token: `tok-${page.id}-${i}`,
      base_url: 'http://127.0.0.1',
      created_at: Date.now(),
    });
    await t.database.db
      .insertInto('status_subscribers')
      .values([row('confirmed', 1), row('confirmed', 2), row('pending', 3), row('unsubscribed', 4)])
      .execute();
    const listed = StatusPageList.parse((await t.inject('/api/v1/status-pages')).json());
    expect(listed.items.find((p) => p.id === page.id)?.subscriberCount).toBe(2);
  });

  it('refuses badly formed slugs and slugs another page uses, on the slug field', async () => {
    for (const slug of ['Acme', '-acme', 'acme status', 'a'.repeat(64)]) {
      const p = await problem(
        await send('POST', '/api/v1/status-pages', { title: 'X', slug }),
        400,
      );
      expect(p.errors?.map((e) => e.path)).toContain('slug');
    }
    const first = await create();
    const p = await problem(
      await send('POST', '/api/v1/status-pages', { title: 'Y', slug: first.slug }),
      409,
    );
    expect(p.type).toBe('conflict');
    expect(p.errors).toEqual([expect.objectContaining({ path: 'slug' })]);
    const other = await create();
    const put = await send('PUT', `/api/v1/status-pages/${other.id}`, {
      title: 'Y',
      slug: first.slug,
    });
    expect((await problem(put, 409)).errors?.[0]?.path).toBe('slug');
  });

  it('checks custom domains for form and uniqueness, case-insensitively', async () => {
    for (const customDomain of ['not a domain', 'http://status.example.com', 'localhost']) {
      const p = await problem(
        await send('POST', '/api/v1/status-pages', { title: 'X', slug: slugOf(), customDomain }),
        400,
      );
      expect(p.errors?.map((e) => e.path)).toContain('customDomain');
    }
    const domain = `status-${slugOf()}.example.com`;
    const page = await create({ customDomain: domain.toUpperCase() });
    expect(page.customDomain).toBe(domain);
    const clash = await send('POST', '/api/v1/status-pages', {
      title: 'X',
      slug: slugOf(),
      customDomain: domain,
    });
    expect((await problem(clash, 409)).errors).toEqual([
      expect.objectContaining({ path: 'customDomain' }),
    ]);
    // The page itself keeps its own domain on save.
    const again = await send('PUT', `/api/v1/status-pages/${page.id}`, {
      title: 'Z',
      slug: page.slug,
      customDomain: domain,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('refuses a monitor twice, unknown monitors and email channels, each on its path', async () => {
    const m = await monitor();
    const twice = await send('POST', '/api/v1/status-pages', {
      title: 'X',
      slug: slugOf(),
      sections: [{ components: [{ monitorId: m.id }] }, { components: [{ monitorId: m.id }] }],
    });
    expect((await problem(twice, 400)).errors?.map((e) => e.path)).toEqual([
      'sections.1.components.0.monitorId',
    ]);
    const unknown = await send('POST', '/api/v1/status-pages', {
      title: 'X',
      slug: slugOf(),
      sections: [{ components: [{ monitorId: m.id }, { monitorId: 987654 }] }],
    });
    const p = await problem(unknown, 400);
    expect(p.errors).toEqual([
      expect.objectContaining({ path: 'sections.0.components.1.monitorId', code: 'not_found' }),
    ]);

    const channel = async (kind: string) => {
      const now = Date.now();
      const r = await t.database.db
        .insertInto('notification_channels')
        .values({
          name: kind,
          kind,
          config: '{}',
          secrets: null,
          template: null,
          is_default: 0,
          enabled: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    };
    const webhook = await channel('webhook');
    const email = await channel('email');
    const subs = (emailChannelId: number | null) =>
      send('POST', '/api/v1/status-pages', {
        title: 'X',
        slug: slugOf(),
        subscriptions: { email: true, emailChannelId },
      });
    for (const id of [webhook, 987654]) {
      expect((await problem(await subs(id), 400)).errors?.[0]?.path).toBe(
        'subscriptions.emailChannelId',
      );
    }
    expect((await problem(await subs(null), 400)).errors?.[0]?.path).toBe(
      'subscriptions.emailChannelId',
    );
    const ok = await subs(email);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(StatusPage.parse(ok.json()).subscriptions).toEqual({
      email: true,
      webhook: false,
      emailChannelId: email,
    });
  });

  it('enforces the limits and refuses unknown fields', async () => {
    const base = { slug: slugOf() };
    const cases: [unknown, string][] = [
      [{ ...base, title: '' }, 'title'],
      [{ ...base, title: 'x'.repeat(101) }, 'title'],
      [{ ...base, title: 'X', description: 'x'.repeat(5001) }, 'description'],
      [{ ...base, title: 'X', footer: 'x'.repeat(1001) }, 'footer'],
      [
        { ...base, title: 'X', sections: Array.from({ length: 21 }, () => ({ components: [] })) },
        'sections',
      ],
      [{ ...base, title: 'X', theme: { mode: 'auto', accent: 'blue' } }, 'theme.accent'],
      [
        {
          ...base,
          title: 'X',
          sections: [{ components: [{ monitorId: 1, displayName: 'x'.repeat(101) }] }],
        },
        'sections.0.components.0.displayName',
      ],
      [{ ...base, title: 'X', colour: 'red' }, ''],
      [{ ...base, title: 'X', show: { uptimeBars: true, confetti: true } }, 'show'],
    ];
    for (const [body, path] of cases) {
      const p = await problem(await send('POST', '/api/v1/status-pages', body), 400);
      expect(
        p.errors?.map((e) => e.path),
        JSON.stringify(body).slice(0, 80),
      ).toContain(path);
    }
  });

  it('lets viewers read and only editors and up write', async () => {
    const page = await create();
    expect(
      (await t.inject({ url: '/api/v1/status-pages', headers: viewer.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ url: `/api/v1/status-pages/${page.id}`, headers: viewer.headers }))
        .statusCode,
    ).toBe(200);
    const writes = [
      send('POST', '/api/v1/status-pages', { title: 'X', slug: slugOf() }, viewer.headers),
      send(
        'PUT',
        `/api/v1/status-pages/${page.id}`,
        { title: 'X', slug: page.slug },
        viewer.headers,
      ),
      t.inject({
        method: 'DELETE',
        url: `/api/v1/status-pages/${page.id}`,
        headers: viewer.headers,
      }),
      t.inject({
        method: 'PUT',
        url: `/api/v1/status-pages/${page.id}/logo`,
        payload: pngBytes,
        headers: { ...viewer.headers, 'content-type': 'image/png' },
      }),
      t.inject({
        method: 'DELETE',
        url: `/api/v1/status-pages/${page.id}/logo`,
        headers: viewer.headers,
      }),
    ];
    for (const res of await Promise.all(writes))
      expect((await problem(res, 403)).type).toBe('forbidden');
    expect(
      (await t.inject({ url: '/api/v1/status-pages', headers: { authorization: '' } })).statusCode,
    ).toBe(401);
  });
});
