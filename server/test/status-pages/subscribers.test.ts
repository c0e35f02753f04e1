import { SubscriberList, SubscriberNotice } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';

const form = (body: Record<string, string>) => ({
  payload: new URLSearchParams(body).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe.each(engines)('status page subscribers on %s', (engine) => {
  let t: TestApp;
  let seq = 0;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  /** A page row as the editor would store it (the editor's own tests cover its API). */
  async function page(opts: { published?: boolean; email?: boolean; webhook?: boolean } = {}) {
    const slug = `subs-${engine}-${++seq}`;
    const now = Date.now();
    const row = await t.database.db
      .insertInto('status_pages')
      .values({
        slug,
        title: `Acme <b>status</b> ${seq}`,
        description: '',
        show: JSON.stringify({ uptimeBars: true, latencyChart: false, currentLatency: false }),
        theme: JSON.stringify({ mode: 'auto', accent: '#2563eb' }),
        subscriptions: JSON.stringify({
          email: opts.email ?? true,
          webhook: opts.webhook ?? true,
          emailChannelId: null,
        }),
        footer: '',
        published: opts.published === false ? 0 : 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), slug };
  }

  const outbox = async (subscriberId?: number) => {
    let q = t.database.db
      .selectFrom('deliveries')
      .select(['subscriber_id', 'event_kind', 'payload', 'order_key', 'state'])
      .where('subscriber_id', 'is not', null);
    if (subscriberId !== undefined) q = q.where('subscriber_id', '=', subscriberId);
    return q.orderBy('id').execute();
  };

  const subscriber = (pageId: number, address: string) =>
    t.database.db
      .selectFrom('status_subscribers')
      .select(['id', 'state', 'token'])
      .where('page_id', '=', pageId)
      .where('address', '=', address)
      .executeTakeFirstOrThrow();

  it('shows a form without any script, offering only the kinds the page takes', async () => {
    const p = await page({ webhook: false });
    const res = await t.app.inject({ url: `/status/${p.slug}/subscribe` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).toContain('Acme &lt;b&gt;status&lt;/b&gt;');
    expect(res.body).toContain('name="kind" value="email"');
    expect(res.body).not.toContain('value="webhook"');
    expect(res.headers['content-security-policy']).toMatch(/style-src 'sha256-/);
  });

  it('is not found for an unpublished page or one without subscriptions', async () => {
    const hidden = await page({ published: false });
    const closed = await page({ email: false, webhook: false });
    for (const slug of [hidden.slug, closed.slug, 'no-such-page']) {
      expect((await t.app.inject({ url: `/status/${slug}/subscribe` })).statusCode).toBe(404);
      const res = await t.app.inject({
        method: 'POST',
        url: `/status/${slug}/subscribe`,
        ...form({ kind: 'email', address: 'a@example.com' }),
      });
      expect(res.statusCode).toBe(404);
    }
  });

  it('double opt-in: email is pending with one confirmation queued until the link is used', async () => {
    const p = await page();
    const res = await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/subscribe`,
      ...form({ kind: 'email', address: 'Ann@Example.com' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Check your inbox');
    const s = await subscriber(p.id, 'ann@example.com');
    expect(s.state).toBe('pending');
    const queued = await outbox(Number(s.id));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ event_kind: 'subscriber.confirm', state: 'queued' });
    const notice = SubscriberNotice.parse(JSON.parse(queued[0]!.payload));
    expect(notice.page).toEqual({ id: p.id, slug: p.slug, title: expect.any(String) });

    // Opening the link changes nothing (mail scanners open links); pressing the button does.
    const link = `/status/${p.slug}/confirm/${s.token}`;
    const shown = await t.app.inject({ url: link });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`action="${link}"`);
    expect((await subscriber(p.id, 'ann@example.com')).state).toBe('pending');
    const done = await t.app.inject({ method: 'POST', url: link });
    expect(done.body).toContain('You are subscribed');
    expect((await subscriber(p.id, 'ann@example.com')).state).toBe('confirmed');
  });

  it('answers the same whether or not the address already follows the page', async () => {
    const p = await page();
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: `/status/${p.slug}/subscribe`,
        ...form({ kind: 'email', address: 'bo@example.com' }),
        remoteAddress: `10.0.0.${++seq}`,
      });
    const first = await ask();
    const s = await subscriber(p.id, 'bo@example.com');
    await t.app.inject({ method: 'POST', url: `/status/${p.slug}/confirm/${s.token}` });
    const again = await ask();
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    // A confirmed address is not mailed another confirmation.
    expect(await outbox(Number(s.id))).toHaveLength(1);
  });

  it('unsubscribes by link and by RFC 8058 one-click POST, and the token works only on its page', async () => {
    const p = await page();
    const other = await page();
    await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/subscribe`,
      ...form({ kind: 'email', address: 'cy@example.com' }),
      remoteAddress: '10.1.0.1',
    });
    const s = await subscriber(p.id, 'cy@example.com');
    expect(
      (await t.app.inject({ method: 'POST', url: `/status/${other.slug}/unsubscribe/${s.token}` }))
        .statusCode,
    ).toBe(404);
    const res = await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/unsubscribe/${s.token}`,
      ...form({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You are unsubscribed');
    expect((await subscriber(p.id, 'cy@example.com')).state).toBe('unsubscribed');
    // A stale confirmation link does not bring it back.
    const late = await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/confirm/${s.token}`,
    });
    expect(late.body).toContain('This subscription was cancelled');
    expect((await subscriber(p.id, 'cy@example.com')).state).toBe('unsubscribed');
  });

  it('takes webhooks at once, but refuses private addresses unless allowed', async () => {
    const p = await page();
    const ok = await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/subscribe`,
      payload: { kind: 'webhook', address: 'http://127.0.0.1:9/hook' },
      remoteAddress: '10.2.0.1',
    });
    expect(ok.statusCode, ok.body).toBe(202);
    expect(ok.json()).toEqual({ state: 'confirmed' });
    expect((await subscriber(p.id, 'http://127.0.0.1:9/hook')).state).toBe('confirmed');

    const strict = await startTestApp({
      engine,
      config: { allowPrivateSubscriberWebhooks: false },
    });
    try {
      const q = await page();
      const now = Date.now();
      await strict.database.db
        .insertInto('status_pages')
        .values({
          slug: q.slug,
          title: 'Strict',
          description: '',
          footer: '',
          show: '{}',
          theme: '{}',
          subscriptions: JSON.stringify({ email: false, webhook: true, emailChannelId: null }),
          published: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      for (const address of [
        'http://127.0.0.1/x',
        'http://169.254.169.254/latest',
        'http://[::1]/',
      ]) {
        const res = await strict.app.inject({
          method: 'POST',
          url: `/status/${q.slug}/subscribe`,
          ...form({ kind: 'webhook', address }),
        });
        expect(res.statusCode, address).toBe(400);
        expect(res.body).toContain('Use a public address;');
      }
    } finally {
      await strict.stop();
    }
  });

  it('rejects a bad address with the form and what was typed, escaped', async () => {
    const p = await page();
    const res = await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/subscribe`,
      ...form({ kind: 'email', address: '"><script>alert(1)</script>' }),
      remoteAddress: '10.3.0.1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter an email address');
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain('&lt;script&gt;');
  });

  /** Puts a monitor on the page and a confirmed email subscriber on it. */
  async function follow(pageId: number, slug: string, monitorId: number, address: string) {
    const section = await t.database.db
      .insertInto('status_page_sections')
      .values({ page_id: pageId, position: 0, title: 'Web' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('status_page_components')
      .values({
        page_id: pageId,
        section_id: section.id,
        position: 0,
        monitor_id: monitorId,
        display_name: '',
        description: '',
      })
      .execute();
    await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      ...form({ kind: 'email', address }),
      remoteAddress: `10.4.0.${++seq}`,
    });
    const s = await subscriber(pageId, address);
    await t.app.inject({ method: 'POST', url: `/status/${slug}/confirm/${s.token}` });
    return Number(s.id);
  }

  it('tells the followers of pages showing its monitors about planned maintenance, with the change', async () => {
    const api = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput(),
    });
    const monitorId = Number(api.json().id);
    const unrelated = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput(),
    });
    const shown = await page();
    const elsewhere = await page();
    const follower = await follow(shown.id, shown.slug, monitorId, 'dee@example.com');
    const other = await follow(
      elsewhere.id,
      elsewhere.slug,
      Number(unrelated.json().id),
      'eve@example.com',
    );

    const created = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      payload: maintenanceInput({
        title: 'DB upgrade',
        scope: { kind: 'monitors', monitorIds: [monitorId] },
      }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const windowId = Number(created.json().id);
    await t.inject({ method: 'POST', url: `/api/v1/maintenance/${windowId}/cancel` });

    const notices = (await outbox(follower))
      .filter((d) => d.event_kind === 'subscriber.maintenance')
      .map((d) => SubscriberNotice.parse(JSON.parse(d.payload)).maintenance);
    expect(notices).toEqual([
      expect.objectContaining({
        id: windowId,
        title: 'DB upgrade',
        change: 'scheduled',
        startsAt: expect.any(String),
      }),
      expect.objectContaining({ id: windowId, change: 'cancelled' }),
    ]);
    expect((await outbox(other)).filter((d) => d.event_kind === 'subscriber.maintenance')).toEqual(
      [],
    );
  });

  it('lists subscribers to editors, not viewers, and removes one', async () => {
    const p = await page();
    await t.app.inject({
      method: 'POST',
      url: `/status/${p.slug}/subscribe`,
      ...form({ kind: 'email', address: 'fay@example.com' }),
      remoteAddress: '10.5.0.1',
    });
    const url = `/api/v1/status-pages/${p.id}/subscribers`;
    const viewer = await t.identity('viewer');
    expect((await t.inject({ url, headers: viewer.headers })).statusCode).toBe(403);
    const editor = await t.identity('editor');
    const list = SubscriberList.parse((await t.inject({ url, headers: editor.headers })).json());
    expect(list.items).toEqual([
      expect.objectContaining({ kind: 'email', address: 'fay@example.com', state: 'pending' }),
    ]);
    const del = await t.inject({
      method: 'DELETE',
      url: `${url}/${list.items[0]!.id}`,
      headers: editor.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(SubscriberList.parse((await t.inject({ url })).json()).items).toEqual([]);
    expect((await t.inject({ url: '/api/v1/status-pages/999999/subscribers' })).statusCode).toBe(
      404,
    );
  });

  it('rate-limits one visitor', async () => {
    const p = await page();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/status/${p.slug}/subscribe`,
        ...form({ kind: 'email', address: `r${i}@example.com` }),
        remoteAddress: '10.9.9.9',
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.slice(5)).toEqual([429, 429]);
  });
});
