import { AuditPage, DeletedData, Problem, User } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { randomBase62, sha256 } from '../../src/lib/crypto.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput } from '../support/factories.js';
import { randomCheck, rng, toWrite } from '../support/history.js';
import { json, slugOf } from '../support/status-page-api.js';

describe.each(engines)("the owner's actions on %s", (engine) => {
  let t: TestApp;
  let admin: Identity;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    admin = await t.identity('admin');
  });
  afterAll(async () => t?.stop());

  const post = (url: string, body: unknown, who: Identity) =>
    t.inject({ method: 'POST', url, ...json(body, who.headers) });
  const transfer = (body: unknown, who: Identity = t.owner) =>
    post('/api/v1/settings/transfer-ownership', body, who);
  const deleteAll = (confirm: string, who: Identity = t.owner) =>
    post('/api/v1/settings/delete-all-data', { confirm }, who);
  const problem = (res: { statusCode: number; json(): unknown }, status: number) => {
    expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
    return Problem.parse(res.json());
  };
  const roles = async () => {
    const res = await t.inject({ url: '/api/v1/users', headers: admin.headers });
    const users = res.json<{ items: unknown[] }>().items.map((u) => User.parse(u));
    return Object.fromEntries(users.map((u) => [u.email, u.role]));
  };
  const audit = async (action: string) =>
    AuditPage.parse((await t.inject({ url: `/api/v1/audit?action=${action}` })).json()).items;

  it('refuses a transfer to anyone but an enabled admin, or without the right password', async () => {
    const editor = await t.identity('editor');
    const disabled = await t.identity('admin');
    const off = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${disabled.userId}`,
      ...json({ disabled: true }, t.owner.headers),
    });
    expect(off.statusCode, off.body).toBe(200);
    const password = t.owner.password;
    const cases: [unknown, string][] = [
      [{ userId: admin.userId, password: 'not my password' }, 'password'],
      [{ userId: editor.userId, password }, 'userId'],
      [{ userId: disabled.userId, password }, 'userId'],
      [{ userId: t.owner.userId, password }, 'userId'],
      [{ userId: 999_999, password }, 'userId'],
      [{ userId: admin.userId }, 'password'],
    ];
    for (const [body, path] of cases) {
      const p = problem(await transfer(body), 400);
      expect(
        p.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toEqual([path]);
    }
    // Admins may do neither owner action, whatever they send.
    expect(problem(await transfer({ userId: admin.userId, password }, admin), 403).type).toBe(
      'forbidden',
    );
    expect(problem(await deleteAll('Pagewatch', admin), 403).type).toBe('forbidden');
    expect((await roles())[t.owner.email]).toBe('owner');
    expect(await audit('settings.ownership_transferred')).toEqual([]);
  });

  it('hands ownership to an admin, who can hand it back; the old owner acts as an admin', async () => {
    // A key made with the owner role acts as its creator's role at most: admin until now.
    const secret = `pw_${randomBase62(40)}`;
    await repositories(t.database).apiKeys.insert(
      {
        name: 'owner-role key',
        prefix: secret.slice(0, 10),
        keyHash: sha256(secret),
        role: 'owner',
        userId: admin.userId,
        expiresAt: null,
      },
      Date.now(),
    );
    const adminAsOwner = { ...admin, headers: { authorization: `Bearer ${secret}` } };
    expect(problem(await deleteAll('Pagewatch', adminAsOwner), 403).type).toBe('forbidden');
    const res = await transfer({ userId: admin.userId, password: t.owner.password });
    expect(res.statusCode, res.body).toBe(204);
    expect(await roles()).toMatchObject({ [t.owner.email]: 'admin', [admin.email]: 'owner' });
    // The old owner's key never acts above its creator: now an admin's.
    const again = await transfer({ userId: admin.userId, password: t.owner.password });
    expect(problem(again, 403).type).toBe('forbidden');
    expect(problem(await deleteAll('Pagewatch'), 403).type).toBe('forbidden');
    const [line] = await audit('settings.ownership_transferred');
    expect(line?.summary).toBe(
      `Ownership passed from ${t.owner.email} to ${admin.email}; ${t.owner.email} is now an admin`,
    );

    const back = await transfer({ userId: t.owner.userId, password: admin.password }, adminAsOwner);
    expect(back.statusCode, back.body).toBe(204);
    expect(await roles()).toMatchObject({ [t.owner.email]: 'owner', [admin.email]: 'admin' });
  });

  it('deletes all data only with the instance name typed out, keeping people and settings', async () => {
    const named = await t.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      ...json({ general: { instanceName: 'Acme uptime', timeZone: 'UTC' } }, t.owner.headers),
    });
    expect(named.statusCode, named.body).toBe(200);
    const ids: number[] = [];
    for (const name of ['Shop', 'API']) {
      const m = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({ type: 'http', name, url: 'http://127.0.0.1:9/' }),
      });
      expect(m.statusCode, m.body).toBe(201);
      ids.push(m.json<{ id: number }>().id);
    }
    const repos = repositories(t.database);
    const r = rng(5);
    await repos.results.writeBatch(
      ids.flatMap((id) =>
        [1, 2, 3].map((h) => toWrite(randomCheck(r, id, Date.now() - h * 3_600_000))),
      ),
    );
    const created = await Promise.all([
      t.inject({
        method: 'POST',
        url: '/api/v1/incidents',
        ...json({ title: 'Slow', message: 'Looking' }),
      }),
      t.inject({
        method: 'POST',
        url: '/api/v1/status-pages',
        ...json({ title: 'Acme', slug: slugOf() }),
      }),
      t.inject({
        method: 'POST',
        url: '/api/v1/notification-channels',
        ...json({ kind: 'webhook', name: 'Ops', config: { url: 'http://127.0.0.1:9/hook' } }),
      }),
      t.inject({ method: 'POST', url: '/api/v1/maintenance', ...json(maintenanceInput()) }),
    ]);
    for (const res of created) expect(res.statusCode, res.body).toBe(201);

    for (const typo of ['acme uptime', 'Acme', '', 'Pagewatch']) {
      const p = problem(await deleteAll(typo), 400);
      expect(p.errors?.map((e) => e.path)).toEqual(['confirm']);
    }
    expect((await repos.monitors.list()).length).toBe(2);

    const res = await deleteAll(' Acme uptime ');
    expect(res.statusCode, res.body).toBe(200);
    expect(DeletedData.parse(res.json())).toEqual({
      monitors: 2,
      incidents: 1,
      statusPages: 1,
      notificationChannels: 1,
      maintenanceWindows: 1,
    });
    for (const url of [
      'monitors',
      'incidents',
      'status-pages',
      'notification-channels',
      'maintenance',
    ]) {
      const list = await t.inject({ url: `/api/v1/${url}` });
      expect(list.statusCode, url).toBe(200);
      expect(list.json<{ items: unknown[] }>().items, url).toEqual([]);
    }
    for (const table of ['check_results', 'rollup_minute', 'rollup_hour', 'rollup_day'] as const) {
      const rows = await t.database.db.selectFrom(table).select('monitor_id').execute();
      expect(rows, table).toEqual([]);
    }
    // People, their keys, the settings and the audit log stay.
    expect(Object.keys(await roles())).toContain(admin.email);
    expect((await t.inject({ url: '/api/v1/settings', headers: admin.headers })).statusCode).toBe(
      200,
    );
    const [line] = await audit('settings.data_deleted');
    expect(line?.summary).toBe(
      'Deleted all data: 2 monitors with their history, 1 incidents, 1 status pages, ' +
        '1 notification channels, 1 maintenance windows',
    );
    expect(await audit('settings.ownership_transferred')).toHaveLength(2);
  });

  it('stops taking passwords after ten wrong ones in 15 minutes, as sign-in does', async () => {
    const wrong = { userId: admin.userId, password: 'a guess' };
    // The first test typed one wrong password already: nine more make ten.
    for (let i = 0; i < 9; i += 1) expect((await transfer(wrong)).statusCode).toBe(400);
    const refused = await transfer({ userId: admin.userId, password: t.owner.password });
    expect(problem(refused, 429).type).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await roles())[t.owner.email]).toBe('owner');
  });
});
