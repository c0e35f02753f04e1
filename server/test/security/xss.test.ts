import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { anonymous, json, jsonAs } from './helpers.js';

/** Markup and script a person might type, or paste, into any text field. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg/onload=alert(1)>",
  '</script><script>alert(1)</script>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
];

/** The same payloads with no spaces, for fields that allow none (the local part of an email). */
const compact = (p: string) => p.replaceAll(' ', '/');

/**
 * The JSON API returns what was typed as data: JSON, never HTML, with nosniff so no browser
 * second-guesses it. Escaping for display is the SPA's job, tested in the browser.
 */
function expectJsonData(res: LightMyRequestResponse, ...typed: string[]) {
  expect(res.statusCode, res.body).toBeLessThan(300);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  for (const t of typed) expect(res.body).toContain(JSON.stringify(t).slice(1, -1));
}

describe.each(engines)('user-typed markup comes back as data on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  it.each(PAYLOADS)('monitor fields keep %s verbatim', async (payload) => {
    const input = {
      type: 'http',
      name: payload,
      description: `Before ${payload} after`,
      tags: [payload.slice(0, 40)],
      url: `https://example.com/search?q=${payload}`,
      // A non-secret header: its value is shown back, so it must come back as data.
      headers: [{ name: 'X-Note', secret: false, value: payload }],
      bodyType: 'raw',
      body: payload,
      assertions: [{ kind: 'keyword', value: payload, mode: 'present' }],
    };
    const created = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(input) });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    const one = await t.inject({ url: `/api/v1/monitors/${id}` });
    expectJsonData(one, payload);
    expect(one.json()).toMatchObject({
      name: input.name,
      description: input.description,
      tags: input.tags,
      url: input.url,
      headers: input.headers,
      body: input.body,
      assertions: [{ kind: 'keyword', value: payload }],
    });
    const list = await t.inject({ url: '/api/v1/monitors' });
    expectJsonData(list, payload);
    const summary = list
      .json<{ items: { id: number; name: string; tags: string[] }[] }>()
      .items.find((m) => m.id === id);
    expect(summary).toMatchObject({ name: payload, tags: input.tags });
  });

  it('user names and emails, API key names and the audit log keep markup verbatim', async () => {
    const audited: string[] = [];
    for (const payload of PAYLOADS.slice(0, 3)) {
      const email = `${compact(payload)}@example.com`.toLowerCase();
      const user = await t.inject({
        method: 'POST',
        url: '/api/v1/users',
        ...json({ email, name: payload, role: 'viewer', password: 'a long enough passphrase' }),
      });
      expectJsonData(user, payload, email);
      expect(user.json()).toMatchObject({ email, name: payload });

      const key = await t.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        ...json({ name: payload, role: 'viewer' }),
      });
      expectJsonData(key, payload);
      expect(key.json()).toMatchObject({ apiKey: { name: payload } });

      // A failed sign-in to an account whose email holds markup names it in the audit log as is.
      const login = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...jsonAs(anonymous, { email, password: 'whatever it is' }),
      });
      expect(login.headers['content-type']).toMatch(/^application\/problem\+json/);
      audited.push(email, `Failed sign-in for ${email}`);
    }
    const users = await t.inject({ url: '/api/v1/users' });
    expectJsonData(users, ...PAYLOADS.slice(0, 3));
    const keys = await t.inject({ url: '/api/v1/api-keys' });
    expectJsonData(keys, ...PAYLOADS.slice(0, 3));
    const audit = await t.inject({ url: '/api/v1/audit?limit=200' });
    expectJsonData(audit, ...audited);
  });

  it('a display name with markup signs in and comes back from /auth/me as data', async () => {
    const payload = PAYLOADS[1]!;
    const created = await t.inject({
      method: 'POST',
      url: '/api/v1/users',
      ...json({
        email: 'marked-up@example.com',
        name: payload,
        role: 'editor',
        password: 'a long enough passphrase',
      }),
    });
    expect(created.statusCode).toBe(201);
    const login = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, {
        email: 'marked-up@example.com',
        password: 'a long enough passphrase',
      }),
    });
    expectJsonData(login, payload);
    const cookie = login.cookies.find((c) => c.name === 'pw_session')!.value;
    const me = await t.inject({
      url: '/api/v1/auth/me',
      headers: { cookie: `pw_session=${cookie}` },
    });
    expectJsonData(me, payload);
    expect(me.json()).toMatchObject({ user: { name: payload } });
  });

  it('errors about markup in the address or the body are problem+json, never HTML', async () => {
    const answers = [
      await t.inject({ url: `/api/v1/monitors/${encodeURIComponent(PAYLOADS[0]!)}` }),
      await t.inject({ url: `/api/v1/${encodeURIComponent(PAYLOADS[1]!)}` }),
      await t.inject({ url: `/${encodeURIComponent(PAYLOADS[0]!)}` }),
      await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({ type: 'http', name: PAYLOADS[0], url: PAYLOADS[1] }),
      }),
      await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: PAYLOADS[0],
        headers: { 'content-type': 'text/html' },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type'], res.body).toMatch(/^application\/problem\+json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // Raw markup only ever appears inside JSON strings, never as a document of its own.
      expect(() => JSON.parse(res.body) as unknown).not.toThrow();
    }
  });
});
