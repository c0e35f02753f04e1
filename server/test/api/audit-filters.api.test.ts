import { AuditPage, Monitor, Problem, type AuditEvent } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';

/** Issue 17: the audit log answers "who changed X" — by person, action or area, and time. */
describe.each(engines)('the audit log, filtered on the server, on %s', (engine) => {
  let t: TestApp;
  let bob: Identity;
  let api: number;
  let gone: number;
  beforeAll(async () => {
    t = await startTestApp({ engine });
    bob = await t.identity('editor', 'bob@example.com');
    const as =
      (headers: Identity['headers'] | undefined) =>
      (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
        t.inject({ method, url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });
    const owner = as(undefined);
    const editor = as(bob.headers);
    // Bob (through his API key) creates, pauses and renames a monitor, and deletes another.
    api = Monitor.parse(
      (await editor('POST', '/api/v1/monitors', monitorInput({ name: 'API' }))).json(),
    ).id;
    await editor('POST', `/api/v1/monitors/${api}/pause`);
    gone = Monitor.parse(
      (await editor('POST', '/api/v1/monitors', monitorInput({ name: 'Old site' }))).json(),
    ).id;
    await editor('DELETE', `/api/v1/monitors/${gone}`);
    // The owner works on status pages, maintenance and channels.
    await owner('POST', '/api/v1/status-pages', { title: 'Acme status', slug: 'acme' });
    await owner('POST', '/api/v1/maintenance', maintenanceInput({ title: 'Patching' }));
    await owner('POST', '/api/v1/notification-channels', {
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    await editor('PUT', `/api/v1/monitors/${api}`, monitorInput({ name: 'Public API' }));
  });
  afterAll(async () => t.stop());

  const list = async (query: string, headers?: Identity['headers']) => {
    const res = await t.inject({ url: `/api/v1/audit?${query}`, ...(headers ? { headers } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return AuditPage.parse(res.json());
  };
  const actions = (items: AuditEvent[]) => items.map((e) => e.action);

  it('by person: their own lines and those of their API keys, nobody else’s', async () => {
    const page = await list(`userId=${bob.userId}`);
    expect(actions(page.items)).toEqual([
      'monitor.updated',
      'monitor.deleted',
      'monitor.created',
      'monitor.paused',
      'monitor.created',
    ]);
    expect(page.items.every((e) => e.actor.type === 'api_key')).toBe(true);
    expect((await list(`userId=${t.owner.userId}&action=monitor.*`)).items).toEqual([]);
    expect((await list('userId=999999')).items).toEqual([]);
  });

  it('by action, and by area for status pages, maintenance and channels', async () => {
    expect(actions((await list('action=monitor.paused')).items)).toEqual(['monitor.paused']);
    expect(actions((await list('action=status_page.*')).items)).toEqual(['status_page.created']);
    expect(actions((await list('action=maintenance.*')).items)).toEqual(['maintenance.created']);
    expect(actions((await list('action=notification_channel.*')).items)).toEqual([
      'notification_channel.created',
    ]);
    const owners = await list(`userId=${t.owner.userId}&action=status_page.created`);
    expect(owners.items).toHaveLength(1);
  });

  it('names each target as it is called today, or as its line said once it is gone', async () => {
    const lines = (await list(`userId=${bob.userId}`)).items;
    const ofApi = lines.filter((e) => e.target?.id === String(api));
    expect(ofApi.map((e) => e.target?.label)).toEqual(['Public API', 'Public API', 'Public API']);
    const deleted = lines.find((e) => e.action === 'monitor.deleted');
    expect(deleted?.target).toEqual({ type: 'monitor', id: String(gone), label: 'Old site' });
  });

  it('by time range (start inclusive, end exclusive) and in pages that neither repeat nor skip', async () => {
    const repos = repositories(t.database);
    const at = (iso: string) => Date.parse(iso);
    for (const [i, when] of [
      '2020-01-01T00:00:00Z',
      '2020-01-02T00:00:00Z',
      '2020-01-03T00:00:00Z',
    ].entries()) {
      await repos.audit.insert({
        at: at(when),
        actor: { type: 'user', id: bob.userId, label: 'bob' },
        action: 'monitor.updated',
        target: { type: 'monitor', id: String(api) },
        ip: null,
        summary: `Old change ${i + 1}`,
      });
    }
    const range = 'from=2020-01-01T00:00:00Z&to=2020-01-03T00:00:00Z';
    expect((await list(range)).items.map((e) => e.summary)).toEqual([
      'Old change 2',
      'Old change 1',
    ]);
    expect((await list('to=2020-01-01T00:00:01%2B00:00')).items.map((e) => e.summary)).toEqual([
      'Old change 1',
    ]);
    const seen: string[] = [];
    let before: number | null = null;
    do {
      const page: AuditPage = await list(
        `userId=${bob.userId}&limit=2${before === null ? '' : `&before=${before}`}`,
      );
      seen.push(...page.items.map((e) => e.summary));
      expect(page.items.length).toBeLessThanOrEqual(2);
      before = page.nextCursor;
    } while (before !== null);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    // Newest written first: the back-dated lines were written last.
    expect(seen.slice(0, 3)).toEqual(['Old change 3', 'Old change 2', 'Old change 1']);
  });

  it('refuses bad filters with a problem naming the field', async () => {
    const bad = async (query: string, path: string) => {
      const res = await t.inject({ url: `/api/v1/audit?${query}` });
      expect(res.statusCode, res.body).toBe(400);
      const problem = Problem.parse(res.json());
      expect(problem.type).toMatch(/validation_failed/);
      expect(problem.errors?.map((e) => e.path)).toContain(path);
      return problem;
    };
    const unknown = await bad('action=monitor.exploded', 'action');
    expect(unknown.errors?.[0]?.message).toBe('Choose an action from the list');
    await bad('action=nothing.*', 'action');
    await bad('action=%27%20or%201%3D1', 'action');
    await bad('userId=bob', 'userId');
    await bad('from=yesterday', 'from');
    const backwards = await bad('from=2020-02-01T00:00:00Z&to=2020-01-01T00:00:00Z', 'to');
    expect(backwards.errors?.[0]?.message).toBe('The end of the range is before its start');
    const unknownKey = await bad('actor=1', '');
    expect(unknownKey.errors?.[0]?.message).toContain('actor');
  });

  it('stays admin-only: editors and viewers are refused, and so is nobody', async () => {
    const viewer = await t.identity('viewer');
    for (const who of [bob, viewer]) {
      const res = await t.inject({
        url: `/api/v1/audit?userId=${who.userId}`,
        headers: who.headers,
      });
      expect(res.statusCode).toBe(403);
    }
    const nobody = await t.inject({ url: '/api/v1/audit', headers: { authorization: '' } });
    expect(nobody.statusCode).toBe(401);
    const admin = await t.identity('admin');
    expect((await list(`userId=${bob.userId}&limit=1`, admin.headers)).items).toHaveLength(1);
  });
});
