import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigPlan } from '@pagewatch/contract';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { SAMPLE_ENV, SAMPLE_YAML } from '../config-as-code/sample.js';

const sample = () =>
  parse(SAMPLE_YAML) as Record<string, unknown> & { monitors: Record<string, unknown>[] };

async function plan(t: TestApp, document: unknown, env: Record<string, string> = SAMPLE_ENV) {
  const res = await t.inject({
    method: 'POST',
    url: '/api/v1/config/plan',
    payload: { document, env },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ConfigPlan>();
}

const apply = (t: TestApp, document: unknown, extra: Record<string, unknown> = {}) =>
  t.inject({
    method: 'POST',
    url: '/api/v1/config/apply',
    payload: { document, env: SAMPLE_ENV, ...extra },
  });

const actions = (p: ConfigPlan, kind: string) =>
  Object.fromEntries(p.entries.filter((e) => e.kind === kind).map((e) => [e.key, e.action]));

const monitorId = async (t: TestApp, name: string) => {
  const res = await t.inject('/api/v1/monitors');
  const items = res.json<{ items: { id: number; name: string }[] }>().items;
  const found = items.find((m) => m.name === name);
  if (!found) throw new Error(`no monitor ${name}`);
  return found.id;
};

describe.each(engines)('config plan and plan tokens on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('plans every resource as a create on an empty instance, and writes nothing', async () => {
    const p = await plan(t, sample());
    expect(actions(p, 'monitors')).toEqual({
      api: 'create',
      db: 'create',
      'dns-www': 'create',
      nightly: 'create',
    });
    expect(p.summary).toMatchObject({ create: 8, update: 0, unchanged: 0, drift: 0 });
    expect(p.token).toMatch(/^v1\./);
    const list = await t.inject('/api/v1/monitors');
    expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    // Nothing changed, so planning again gives the same token.
    expect((await plan(t, sample())).token).toBe(p.token);
  });

  it('plans nothing to do right after an apply', async () => {
    expect((await apply(t, sample())).statusCode).toBe(200);
    const p = await plan(t, sample());
    expect(p.summary).toMatchObject({ create: 0, update: 0, unchanged: 8, drift: 0 });
    expect(p.entries.every((e) => e.changes.length === 0)).toBe(true);
  });

  it('names each changed property of a file edit, secrets only as changed or unchanged', async () => {
    const doc = sample();
    doc.monitors[1]!.port = 5433;
    doc.monitors[0]!.tags = ['prod'];
    const p = await plan(t, doc, { ...SAMPLE_ENV, API_TOKEN: 'rotated-token-value' });
    expect(actions(p, 'monitors')).toMatchObject({ api: 'update', db: 'update' });
    const changes = (key: string) => p.entries.find((e) => e.key === key)?.changes;
    expect(changes('db')).toEqual([{ path: 'port', before: 5432, after: 5433 }]);
    expect(changes('api')).toEqual([
      { path: 'tags', before: ['prod', 'api'], after: ['prod'] },
      { path: 'auth.token', secret: 'changed' },
      { path: 'headers.0.value', secret: 'unchanged' },
    ]);
    const text = JSON.stringify(p);
    for (const secret of ['rotated-token-value', ...Object.values(SAMPLE_ENV)])
      expect(text).not.toContain(secret);
  });

  it('reports drift: a managed monitor edited outside the files since the last apply', async () => {
    const id = await monitorId(t, 'Database');
    const paused = await t.inject({ method: 'POST', url: `/api/v1/monitors/${id}/pause` });
    expect(paused.statusCode, paused.body).toBe(200);
    const p = await plan(t, sample());
    expect(p.drift).toEqual([
      { kind: 'monitors', key: 'db', changes: [{ path: 'paused', before: false, after: true }] },
    ]);
    expect(p.summary.drift).toBe(1);
    // The files say "not paused": applying them would undo the edit.
    expect(p.entries.find((e) => e.key === 'db')).toMatchObject({
      action: 'update',
      changes: [{ path: 'paused', before: true, after: false }],
    });
    expect((await apply(t, sample())).statusCode).toBe(200);
    expect((await plan(t, sample())).drift).toEqual([]);
  });

  it('reports a channel renamed and its secret rotated outside the files, without the value', async () => {
    const list = await t.inject('/api/v1/notification-channels');
    const ops = list
      .json<{ items: { id: number; name: string }[] }>()
      .items.find((c) => c.name === 'Ops webhook');
    const edit = await t.inject({
      method: 'PUT',
      url: `/api/v1/notification-channels/${ops?.id}`,
      payload: {
        kind: 'webhook',
        name: 'Ops hook (UI)',
        config: { url: 'https://hooks.example.com/pagewatch' },
        secrets: { signingSecret: 'rotated-in-the-ui' },
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const p = await plan(t, sample());
    expect(p.drift).toEqual([
      {
        kind: 'channels',
        key: 'ops-webhook',
        changes: [
          { path: 'name', before: 'Ops webhook', after: 'Ops hook (UI)' },
          { path: 'secrets.signingSecret', secret: 'changed' },
        ],
      },
    ]);
    expect(JSON.stringify(p)).not.toContain('rotated-in-the-ui');
    expect((await apply(t, sample())).statusCode).toBe(200);
    expect((await plan(t, sample())).drift).toEqual([]);
  });

  it('refuses an apply with a token when someone changed the server since the plan', async () => {
    const doc = sample();
    doc.monitors[1]!.port = 6543;
    const p = await plan(t, doc);
    const id = await monitorId(t, 'Database');
    const nightly = await monitorId(t, 'Nightly job');
    const edit = await t.inject({ method: 'POST', url: `/api/v1/monitors/${nightly}/pause` });
    expect(edit.statusCode).toBe(200);
    const refused = await apply(t, doc, { planToken: p.token });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      type: expect.stringMatching(/conflict/),
      detail: expect.stringMatching(/changed since this plan was made; nothing was written/),
    });
    const stored = await t.inject(`/api/v1/monitors/${id}`);
    expect(stored.json()).toMatchObject({ port: 5432 });
    // A fresh plan's token is accepted, and without a token the apply still works.
    const again = await plan(t, doc);
    const ok = await apply(t, doc, { planToken: again.token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.inject(`/api/v1/monitors/${id}`)).json()).toMatchObject({
      port: 6543,
    });
    expect((await t.inject(`/api/v1/monitors/${nightly}`)).json()).toMatchObject({ paused: false });
    expect((await apply(t, sample())).statusCode).toBe(200);
  });

  it('plans a dropped managed monitor as a detach, and as a delete with prune', async () => {
    const doc = sample();
    doc.monitors = doc.monitors.filter((m) => m.key !== 'nightly');
    expect(actions(await plan(t, doc), 'monitors')).toMatchObject({ nightly: 'detach' });
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/config/plan',
      payload: { document: doc, env: SAMPLE_ENV, prune: true },
    });
    const pruned = res.json<ConfigPlan>();
    expect(actions(pruned, 'monitors')).toMatchObject({ nightly: 'delete' });
    expect(pruned.summary).toMatchObject({ delete: 1, detach: 0 });
    // Still there: a plan writes nothing.
    expect(await monitorId(t, 'Nightly job')).toBeGreaterThan(0);
  });

  it('is an admin’s', async () => {
    const viewer = await t.identity('viewer');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/config/plan',
      headers: viewer.headers,
      payload: { document: sample(), env: SAMPLE_ENV },
    });
    expect(res.statusCode).toBe(403);
  });
});
