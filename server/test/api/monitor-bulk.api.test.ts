import {
  AuditPage,
  Monitor,
  MonitorBulkResult,
  MonitorRowPage,
  Problem,
  type MonitorBulkAction,
  type MonitorSelection,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { until } from '../support/until.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
/** The key the test app seals with (its PAGEWATCH_SECRET), to read what a row holds. */
const box = new SecretBox(loadSecretKey('test-instance-secret-0123456789abcdef', ''));

// With the scheduler, "all matching a filter" is read from the dashboard's read model; without
// it, from the database. Monitors point at a closed loopback port.
describe.each(engines.flatMap((e) => [[e, false] as const, [e, true] as const]))(
  'bulk monitor actions on %s (read model: %s)',
  (engine, scheduler) => {
    let t: TestApp;
    let editor: Identity;
    let viewer: Identity;
    let seq = 0;
    beforeAll(async () => {
      t = await startTestApp({ engine, scheduler });
      editor = await t.identity('editor');
      viewer = await t.identity('viewer');
    });
    afterAll(async () => t.stop());

    async function make(tags: string[], extra: Record<string, unknown> = {}): Promise<Monitor> {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({
          type: 'http',
          name: `Bulk ${++seq}`,
          url: `http://127.0.0.1:9/${seq}`,
          tags,
          paused: true,
          ...extra,
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
      return Monitor.parse(res.json());
    }
    const get = async (id: number) =>
      Monitor.parse((await t.inject(`/api/v1/monitors/${id}`)).json());
    const bulk = async (
      selection: MonitorSelection,
      action: MonitorBulkAction,
      who: Identity = editor,
    ) => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors/bulk',
        ...json({ selection, action }, who.headers),
      });
      expect(res.statusCode, res.body).toBe(200);
      return MonitorBulkResult.parse(res.json());
    };
    /** The read model takes in a change from its event, a moment after the answer. */
    const rowsSeeTag = (tag: string, n: number) =>
      until(`${n} rows tagged ${tag}`, async () => {
        const res = await t.inject(`/api/v1/monitors/rows?tag=${tag}&limit=1`);
        return MonitorRowPage.parse(res.json()).total === n || undefined;
      });

    it('pauses every monitor matching a filter, loaded or not, and resumes ticked ones', async () => {
      const tag = `flt-${engine}-${scheduler}`;
      const inFilter: Monitor[] = [];
      for (let i = 0; i < 5; i++) inFilter.push(await make([tag], { paused: false }));
      const outside = await make(['other'], { paused: false });
      await rowsSeeTag(tag, 5);
      const r = await bulk({ kind: 'filter', tag }, { kind: 'pause' });
      expect(r).toMatchObject({ action: 'pause', selected: 5, notFound: [], managed: [] });
      expect(r.done).toEqual(inFilter.map((m) => m.id));
      for (const m of inFilter) expect((await get(m.id)).paused).toBe(true);
      expect((await get(outside.id)).paused).toBe(false);

      const back = await bulk({ kind: 'ids', ids: [inFilter[0]!.id] }, { kind: 'resume' });
      expect(back.done).toEqual([inFilter[0]!.id]);
      expect((await get(inFilter[0]!.id)).paused).toBe(false);
      // One audit line per monitor, naming the bulk action.
      const audit = AuditPage.parse((await t.inject('/api/v1/audit?limit=100')).json());
      const paused = audit.items.filter(
        (e) => e.action === 'monitor.paused' && inFilter.some((m) => String(m.id) === e.target?.id),
      );
      expect(paused).toHaveLength(5);
      expect(paused[0]!.summary).toContain('(bulk, 5 monitors)');
    });

    it('acts on the rest when another person deleted some meanwhile, naming them', async () => {
      const a = await make(['gone']);
      const b = await make(['gone']);
      const c = await make(['gone']);
      // Another person (the owner) deletes one after this editor selected it.
      const del = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${b.id}` });
      expect(del.statusCode).toBe(204);
      const r = await bulk({ kind: 'ids', ids: [a.id, b.id, c.id] }, { kind: 'resume' });
      expect(r.done).toEqual([a.id, c.id]);
      expect(r.notFound).toEqual([b.id]);
      expect(r.selected).toBe(3);
      expect((await get(a.id)).paused).toBe(false);
      expect((await get(c.id)).paused).toBe(false);

      // Deleting: the one already gone is named, the others go, with their confirmation asked by the UI.
      const d = await bulk({ kind: 'ids', ids: [a.id, b.id] }, { kind: 'delete' });
      expect(d).toMatchObject({ done: [a.id], notFound: [b.id] });
      expect((await t.inject(`/api/v1/monitors/${a.id}`)).statusCode).toBe(404);
      expect((await t.inject(`/api/v1/monitors/${c.id}`)).statusCode).toBe(200);
    });

    it('leaves monitors managed by configuration files alone and says so', async () => {
      const free = await make(['cfg']);
      const managed = await make(['cfg']);
      await repositories(t.database).configKeys.mark('monitors', managed.id, `m-${seq}`, true);
      for (const action of [
        { kind: 'resume' },
        { kind: 'tag', tags: ['x'] },
        { kind: 'interval', interval: 300 },
        { kind: 'delete' },
      ] satisfies MonitorBulkAction[]) {
        const r = await bulk({ kind: 'ids', ids: [free.id, managed.id] }, action);
        expect(r.managed, action.kind).toEqual([managed.id]);
        expect(r.done, action.kind).toEqual([free.id]);
      }
      const kept = await get(managed.id);
      expect(kept).toMatchObject({ paused: true, tags: ['cfg'], interval: 60 });
    });

    it('tags, untags, sets the interval and channels, refusing what would be invalid', async () => {
      const a = await make(['keep', 'old']);
      const b = await make(['keep'], { timeout: 30, interval: 120 });
      const ids = [a.id, b.id];
      const tagged = await bulk({ kind: 'ids', ids }, { kind: 'tag', tags: ['new', 'keep'] });
      expect(tagged.done).toEqual(ids);
      expect((await get(a.id)).tags).toEqual(['keep', 'old', 'new']);
      expect((await get(b.id)).tags).toEqual(['keep', 'new']);
      const untagged = await bulk({ kind: 'ids', ids }, { kind: 'untag', tags: ['old', 'keep'] });
      expect(untagged.done).toEqual(ids);
      expect((await get(a.id)).tags).toEqual(['new']);

      const interval = await bulk({ kind: 'ids', ids }, { kind: 'interval', interval: 20 });
      expect(interval.done).toEqual([a.id]);
      expect(interval.refused).toEqual([{ id: b.id, reason: expect.stringContaining('30 s') }]);
      expect((await get(a.id)).interval).toBe(20);
      expect((await get(b.id)).interval).toBe(120);

      const ch = await t.inject({
        method: 'POST',
        url: '/api/v1/notification-channels',
        ...json({ kind: 'webhook', name: `Bulk ${seq}`, config: { url: 'http://127.0.0.1:9/' } }),
      });
      expect(ch.statusCode, ch.body).toBe(201);
      const channelId = ch.json<{ id: number }>().id;
      const set = await bulk({ kind: 'ids', ids }, { kind: 'channels', channelIds: [channelId] });
      expect(set.done).toEqual(ids);
      expect((await get(a.id)).channelIds).toEqual([channelId]);
      const none = await bulk({ kind: 'ids', ids: [a.id] }, { kind: 'channels', channelIds: [] });
      expect(none.done).toEqual([a.id]);
      expect((await get(a.id)).channelIds).toEqual([]);
      expect((await get(b.id)).channelIds).toEqual([channelId]);
    });

    it('puts the selected monitors in one maintenance window', async () => {
      const a = await make(['mw']);
      const b = await make(['mw']);
      const startsAt = new Date(Date.now() + 3_600_000).toISOString();
      const endsAt = new Date(Date.now() + 7_200_000).toISOString();
      const r = await bulk(
        { kind: 'ids', ids: [a.id, b.id, 999_999] },
        {
          kind: 'maintenance',
          title: 'Bulk upgrade',
          timezone: 'UTC',
          schedule: { kind: 'once', startsAt, endsAt },
        },
      );
      expect(r.done).toEqual([a.id, b.id]);
      expect(r.notFound).toEqual([999_999]);
      expect(r.maintenanceId).not.toBeNull();
      const w = await t.inject(`/api/v1/maintenance/${r.maintenanceId}`);
      expect(w.json()).toMatchObject({
        title: 'Bulk upgrade',
        scope: { kind: 'monitors', monitorIds: [a.id, b.id] },
      });
    });

    it('forbids viewers and refuses bad input with field errors', async () => {
      const m = await make(['v']);
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors/bulk',
        ...json(
          { selection: { kind: 'ids', ids: [m.id] }, action: { kind: 'pause' } },
          viewer.headers,
        ),
      });
      expect(res.statusCode).toBe(403);
      expect(Problem.parse(res.json()).type).toContain('forbidden');
      for (const body of [
        { selection: { kind: 'ids', ids: [] }, action: { kind: 'pause' } },
        { selection: { kind: 'ids', ids: [m.id] }, action: { kind: 'explode' } },
        { selection: { kind: 'ids', ids: [m.id] }, action: { kind: 'interval', interval: 5 } },
        { selection: { kind: 'ids', ids: [m.id] }, action: { kind: 'tag', tags: [] } },
        { selection: { kind: 'everything' }, action: { kind: 'pause' } },
        { selection: { kind: 'ids', ids: [m.id] }, action: { kind: 'pause' }, extra: 1 },
      ]) {
        const bad = await t.inject({ method: 'POST', url: '/api/v1/monitors/bulk', ...json(body) });
        expect(bad.statusCode, JSON.stringify(body)).toBe(400);
        expect(Problem.parse(bad.json()).type).toContain('validation_failed');
      }
      const unknownChannel = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors/bulk',
        ...json({
          selection: { kind: 'ids', ids: [m.id] },
          action: { kind: 'channels', channelIds: [987_654] },
        }),
      });
      expect(unknownChannel.statusCode).toBe(400);
      expect((await get(m.id)).paused).toBe(true);
    });

    it('clones a monitor with its secrets copied on the server', async () => {
      const token = 'bulk-clone-token-never-shown';
      const source = await make(['clone'], {
        auth: { kind: 'bearer', token },
        headers: [{ name: 'X-Api-Key', secret: true, value: 'hdr-secret-never-shown' }],
      });
      const got = await t.inject(`/api/v1/monitors/${source.id}`);
      expect(got.body).not.toContain(token);
      // What the form sends back: the definition as shown, secrets left out, a new name.
      const res = await t.inject({
        method: 'POST',
        url: `/api/v1/monitors/${source.id}/clone`,
        ...json({
          type: 'http',
          name: `${source.name} (copy)`,
          url: source.type === 'http' ? source.url : '',
          auth: { kind: 'bearer' },
          headers: [{ name: 'X-Api-Key', secret: true }],
          tags: ['clone'],
          paused: true,
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toContain(token);
      const copy = Monitor.parse(res.json());
      expect(copy.id).not.toBe(source.id);
      expect(copy).toMatchObject({
        name: `${source.name} (copy)`,
        auth: { kind: 'bearer', hasSecret: true },
      });
      const rows = await t.database.db
        .selectFrom('monitors')
        .select(['id', 'secret', 'header_secrets'])
        .where('id', 'in', [source.id, copy.id])
        .orderBy('id')
        .execute();
      expect(box.open(rows[1]!.secret!)).toBe(token);
      expect(JSON.parse(box.open(rows[1]!.header_secrets!))).toEqual(['hdr-secret-never-shown']);
      const audit = AuditPage.parse((await t.inject('/api/v1/audit?limit=5')).json());
      expect(audit.items.some((e) => e.summary.includes('as a copy of'))).toBe(true);

      const viewerClone = await t.inject({
        method: 'POST',
        url: `/api/v1/monitors/${source.id}/clone`,
        ...json({ type: 'http', name: 'no', url: 'http://127.0.0.1:9/' }, viewer.headers),
      });
      expect(viewerClone.statusCode).toBe(403);
      const missing = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors/999999/clone',
        ...json({ type: 'http', name: 'no', url: 'http://127.0.0.1:9/' }),
      });
      expect(missing.statusCode).toBe(404);
    });
  },
);
