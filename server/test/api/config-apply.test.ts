import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { SAMPLE_ENV, SAMPLE_YAML } from '../config-as-code/sample.js';

const sample = () => parse(SAMPLE_YAML) as Record<string, unknown> & { monitors: unknown[] };

async function apply(t: TestApp, document: unknown, extra: Record<string, unknown> = {}) {
  return t.inject({
    method: 'POST',
    url: '/api/v1/config/apply',
    payload: { document, env: SAMPLE_ENV, ...extra },
  });
}

const exportText = async (t: TestApp, format = 'json') => {
  const res = await t.inject(`/api/v1/export?format=${format}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

const count = async (t: TestApp, what: 'monitors' | 'notification-channels' | 'status-pages') => {
  const res = await t.inject(`/api/v1/${what}`);
  return res.json<{ items: unknown[] }>().items.length;
};

describe.each(engines)('configuration as code on %s', (engine) => {
  let t: TestApp;
  let empty: TestApp;
  beforeAll(async () => {
    [t, empty] = await Promise.all([startTestApp({ engine }), startTestApp({ engine })]);
  });
  afterAll(async () => {
    await Promise.all([t.stop(), empty.stop()]);
  });

  it('creates every resource of a document, then exports it back byte for byte elsewhere', async () => {
    const res = await apply(t, sample());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      dryRun: false,
      channels: { created: ['ops-webhook', 'team-mail'] },
      monitors: { created: ['api', 'db', 'dns-www', 'nightly'] },
      statusPages: { created: ['public'] },
      maintenance: { created: ['sunday-db'] },
    });
    const first = await exportText(t);
    // Secrets leave as references only.
    for (const value of Object.values(SAMPLE_ENV)) expect(first).not.toContain(value);
    expect(first).toContain('${env:API_TOKEN}'.replace('API_TOKEN', 'MONITOR_API_TOKEN'));

    const copy = await apply(empty, JSON.parse(first), {
      env: {
        CHANNEL_OPS_WEBHOOK_SIGNING_SECRET: 's',
        CHANNEL_TEAM_MAIL_PASSWORD: 'p',
        MONITOR_API_HEADER_X_API_KEY: 'k',
        MONITOR_API_TOKEN: 't',
      },
    });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(await exportText(empty)).toBe(first);
    expect(await exportText(empty, 'yaml')).toBe(await exportText(t, 'yaml'));
  });

  it('finds nothing to change when the same document is applied again', async () => {
    const again = await apply(t, sample());
    expect(again.statusCode, again.body).toBe(200);
    const report = again.json<Record<string, { unchanged: string[]; updated: string[] }>>();
    expect(report.monitors?.unchanged).toEqual(['api', 'db', 'dns-www', 'nightly']);
    expect(report.monitors?.updated).toEqual([]);
    expect(report.channels?.unchanged).toEqual(['ops-webhook', 'team-mail']);
    expect(report.statusPages?.unchanged).toEqual(['public']);
    expect(report.maintenance?.unchanged).toEqual(['sunday-db']);
    // The export itself, applied with no variables set, keeps every stored secret.
    const exported = await apply(t, JSON.parse(await exportText(t)), { env: {} });
    expect(exported.json()).toMatchObject({ monitors: { updated: [], created: [] } });
  });

  it('updates what changed, and a new secret value counts as a change', async () => {
    const doc = sample();
    (doc.monitors[1] as { port: number }).port = 5433;
    const res = await apply(t, doc, { env: { ...SAMPLE_ENV, API_TOKEN: 'rotated' } });
    expect(res.json()).toMatchObject({
      monitors: { updated: ['api', 'db'], unchanged: ['dns-www', 'nightly'] },
    });
  });

  it('writes nothing when one resource fails, even after others were written', async () => {
    const before = await count(t, 'monitors');
    const doc = sample();
    doc.monitors.push({ key: 'new-one', type: 'tcp', name: 'New', host: 'n.example.com', port: 1 });
    // A slug taken by a page the UI made: found only when the page is written, last.
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: { slug: 'taken', title: 'Made in the UI' },
    });
    expect(page.statusCode, page.body).toBe(201);
    const pages = doc.statusPages as { key: string; slug: string; title: string }[];
    pages.push({ key: 'second', slug: 'taken', title: 'Second' });
    const res = await apply(t, doc);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      errors: [{ path: 'document.statusPages.1.slug', message: expect.stringMatching(/slug/) }],
    });
    expect(await count(t, 'monitors')).toBe(before);
  });

  it('refuses a document with a bad monitor, naming the field, and writes nothing', async () => {
    const doc = sample();
    doc.monitors.push({ key: 'bad', type: 'http', name: 'Bad', url: 'not a url' });
    doc.monitors.push({ key: 'fine', type: 'tcp', name: 'Fine', host: 'f.example.com', port: 1 });
    const before = await count(t, 'monitors');
    const res = await apply(t, doc);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: [{ path: 'document.monitors.4.url' }] });
    expect(await count(t, 'monitors')).toBe(before);
  });

  it('asks for the variable of a new resource’s secret instead of storing nothing', async () => {
    const before = await count(empty, 'monitors');
    const doc = sample();
    doc.monitors.push({
      key: 'fresh',
      type: 'http',
      name: 'Fresh',
      url: 'https://fresh.example.com',
      auth: { kind: 'bearer', token: '${env:FRESH_TOKEN}' },
    });
    const res = await apply(empty, doc, { env: SAMPLE_ENV });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [
        {
          path: 'document.monitors.4.auth.token',
          message: expect.stringMatching(/Set the environment variable FRESH_TOKEN/),
        },
      ],
    });
    expect(await count(empty, 'monitors')).toBe(before);
  });

  it('previews with dryRun and create-only leaves known keys alone', async () => {
    const doc = sample();
    doc.monitors.push({ key: 'preview', type: 'tcp', name: 'P', host: 'p.example.com', port: 1 });
    const before = await count(t, 'monitors');
    const dry = await apply(t, doc, { dryRun: true });
    expect(dry.json()).toMatchObject({ dryRun: true, monitors: { created: ['preview'] } });
    expect(await count(t, 'monitors')).toBe(before);
    (doc.monitors[1] as { port: number }).port = 9999;
    const once = await apply(t, doc, { mode: 'create-only' });
    expect(once.json()).toMatchObject({
      monitors: { created: ['preview'], skipped: ['api', 'db', 'dns-www', 'nightly'], updated: [] },
    });
    const twice = await apply(t, doc, { mode: 'create-only' });
    expect(twice.json()).toMatchObject({ monitors: { created: [] } });
    expect(await count(t, 'monitors')).toBe(before + 1);
  });

  it('detaches what the document dropped, and deletes it only with prune', async () => {
    const repos = repositories(t.database);
    const doc = sample();
    doc.monitors = doc.monitors.filter((m) => (m as { key: string }).key !== 'nightly');
    const detached = await apply(t, doc);
    expect(detached.json()).toMatchObject({ monitors: { detached: ['nightly', 'preview'] } });
    const marks = await repos.configKeys.marks('monitors');
    expect(marks.find((m) => m.key === 'nightly')).toMatchObject({ managed: false });
    // Detached, it is the UI's again: a later apply leaves it alone, prune or not.
    const kept = await apply(t, doc, { prune: true });
    expect(kept.json()).toMatchObject({ monitors: { deleted: [], detached: [] } });
    // Applied again, it is managed; dropped with prune, it goes with its history.
    await apply(t, sample());
    const pruned = await apply(t, doc, { prune: true });
    expect(pruned.json()).toMatchObject({ monitors: { deleted: ['nightly'] } });
    expect((await repos.configKeys.marks('monitors')).some((m) => m.key === 'nightly')).toBe(false);
  });

  it('lists what files manage, and an admin detaches one by hand', async () => {
    await apply(t, sample());
    const managed = await t.inject('/api/v1/config/managed');
    expect(managed.statusCode, managed.body).toBe(200);
    const list = managed.json<{ monitors: { id: number; key: string }[] }>();
    const db = list.monitors.find((m) => m.key === 'db');
    expect(db).toBeDefined();
    const viewer = await t.identity('viewer', `managed-viewer-${engine}@example.com`);
    const seen = await t.inject({ url: '/api/v1/config/managed', headers: viewer.headers });
    expect(seen.statusCode).toBe(200);
    const detach = { method: 'POST' as const, url: '/api/v1/config/detach' };
    const payload = { kind: 'monitors', id: db?.id };
    const refused = await t.inject({ ...detach, payload, headers: viewer.headers });
    expect(refused.statusCode).toBe(403);
    expect((await t.inject({ ...detach, payload })).statusCode).toBe(204);
    const after = (await t.inject('/api/v1/config/managed')).json<typeof list>();
    expect(after.monitors.map((m) => m.key)).not.toContain('db');
    const twice = await t.inject({ ...detach, payload });
    expect(twice.statusCode).toBe(409);
    const missing = await t.inject({ ...detach, payload: { kind: 'channels', id: 999_999 } });
    expect(missing.statusCode).toBe(404);
  });

  it('creates 601 new monitors in one apply, each with its own settings, channels and audit line, in the document’s order', async () => {
    const fresh = await startTestApp({ engine });
    try {
      const n = 601; // more than one of the writer's batches
      const document = {
        version: 1,
        channels: [
          { key: 'hook-a', kind: 'webhook', name: 'A', config: { url: 'https://a.example.com' } },
          { key: 'hook-b', kind: 'webhook', name: 'B', config: { url: 'https://b.example.com' } },
        ],
        monitors: Array.from({ length: n }, (_, i) => ({
          key: `m-${i}`,
          type: 'http',
          name: `Service ${i}`,
          url: `https://s${i}.example.com/health`,
          interval: 30 + (i % 5) * 30,
          tags: [`t${i % 3}`],
          channels: i % 2 ? ['hook-a', 'hook-b'] : ['hook-b'],
        })),
      };
      const res = await apply(fresh, document, { env: {} });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ monitors: { created: string[] } }>().monitors.created).toEqual(
        document.monitors.map((m) => m.key),
      );
      // Every monitor is what its entry says, and the export gives the entries back.
      const exported = JSON.parse(await exportText(fresh)) as {
        monitors: {
          key: string;
          name: string;
          url: string;
          interval: number;
          channels: string[];
        }[];
      };
      const byKey = new Map(exported.monitors.map((m) => [m.key, m]));
      for (const want of document.monitors) {
        expect(byKey.get(want.key)).toMatchObject({
          name: want.name,
          url: want.url,
          interval: want.interval,
          channels: want.channels,
        });
      }
      const lines = await fresh.database.db
        .selectFrom('audit_events')
        .select(['summary', 'target_id'])
        .where('action', '=', 'monitor.created')
        .execute();
      expect(lines).toHaveLength(n);
      expect(new Set(lines.map((l) => l.target_id)).size).toBe(n);
      expect(lines.map((l) => l.summary)).toContain('Created http monitor "Service 600"');
    } finally {
      await fresh.stop();
    }
  });

  it('takes a group naming its members by key, listed before them, and exports it back', async () => {
    const fresh = await startTestApp({ engine });
    try {
      const document = {
        version: 1,
        monitors: [
          // Before its members, and naming another new group: created once they exist.
          { key: 'shop', type: 'group', name: 'Shop', members: ['web', 'backend'], rule: 'all_up' },
          { key: 'backend', type: 'group', name: 'Backend', members: ['api', 'db'] },
          { key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' },
          { key: 'api', type: 'http', name: 'API', url: 'https://api.example.com/' },
          { key: 'db', type: 'tcp', name: 'DB', host: 'db.example.com', port: 5432 },
        ],
      };
      const res = await apply(fresh, document, { env: {} });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ monitors: { created: string[] } }>().monitors.created).toHaveLength(5);
      const exported = JSON.parse(await exportText(fresh)) as {
        monitors: { key: string; members?: string[]; rule?: string }[];
      };
      const shop = exported.monitors.find((m) => m.key === 'shop');
      expect(shop).toMatchObject({ members: ['web', 'backend'], rule: 'all_up' });
      const again = await apply(fresh, exported, { env: {} });
      expect(again.json<{ monitors: { unchanged: string[] } }>().monitors.unchanged).toHaveLength(
        5,
      );

      const unknown = await apply(fresh, {
        version: 1,
        monitors: [{ key: 'lonely', type: 'group', name: 'Lonely', members: ['nobody'] }],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({
        errors: [
          { path: 'document.monitors.0.members.0', message: 'No monitor has the key "nobody"' },
        ],
      });
      const circle = await apply(fresh, {
        version: 1,
        monitors: [
          { key: 'a', type: 'group', name: 'A', members: ['b'] },
          { key: 'b', type: 'group', name: 'B', members: ['a'] },
        ],
      });
      expect(circle.statusCode).toBe(400);
      expect(circle.json()).toMatchObject({ errors: [{ path: 'document.monitors.0.members' }] });
    } finally {
      await fresh.stop();
    }
  });

  it('is an admin’s: viewers and editors are refused, the schema is public', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const who = await t.identity(role, `${role}-${engine}@example.com`);
      for (const req of [
        { method: 'GET' as const, url: '/api/v1/export' },
        { method: 'POST' as const, url: '/api/v1/config/apply', payload: { document: sample() } },
      ]) {
        const res = await t.inject({ ...req, headers: who.headers });
        expect(res.statusCode, `${role} ${req.url}`).toBe(403);
      }
    }
    const schema = await t.app.inject('/api/v1/config/schema.json');
    expect(schema.statusCode).toBe(200);
    expect(schema.json()).toMatchObject({ type: 'object' });
  });
});
