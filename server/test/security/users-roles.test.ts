import { AuditPage, User, type AuditEvent, type Role } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import {
  anonymous,
  expectProblem,
  insertSession,
  jsonAs,
  sessionFor,
  type BrowserSession,
} from './helpers.js';

/** Where the admin's requests come from, so the audit log can be checked for it. */
const ADMIN_IP = '203.0.113.7';
const PASSWORD = 'a perfectly fine passphrase';
let seq = 0;

describe.each(engines)('users and roles on %s', (engine) => {
  let t: TestApp;
  let admin: Identity;
  let adminSession: BrowserSession;
  beforeAll(async () => {
    t = await startTestApp({ engine });
    admin = await t.identity('admin');
    adminSession = await sessionFor(t, admin.userId);
  });
  afterAll(async () => t?.stop());

  /** A request as the admin, signed in through the SPA from ADMIN_IP. */
  const asAdmin = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    t.inject({
      method,
      url,
      remoteAddress: ADMIN_IP,
      ...(body === undefined
        ? { headers: adminSession.headers }
        : jsonAs(adminSession.headers, body)),
    });
  /** The same as the owner (API key). */
  const asOwner = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
    t.inject({ method, url, ...jsonAs(t.owner.headers, body) });

  const newUser = (role: Role, email = `person-${++seq}@example.com`) => ({
    email,
    name: `Person ${seq}`,
    role,
    password: PASSWORD,
  });

  async function created(res: Awaited<ReturnType<typeof asAdmin>>): Promise<User> {
    expect(res.statusCode, res.body).toBe(201);
    return User.parse(res.json());
  }

  const cookieWorks = async (token: string) =>
    (await t.inject({ url: '/api/v1/auth/me', headers: { cookie: `pw_session=${token}` } }))
      .statusCode;

  async function audit(action: string): Promise<AuditEvent[]> {
    const res = await asAdmin('GET', `/api/v1/audit?action=${action}&limit=200`);
    expect(res.statusCode, res.body).toBe(200);
    return AuditPage.parse(res.json()).items;
  }

  it('admins create and edit editors and viewers, but cannot create, grant or touch owners', async () => {
    const editor = await created(await asAdmin('POST', '/api/v1/users', newUser('editor')));
    const viewer = await created(await asAdmin('POST', '/api/v1/users', newUser('viewer')));
    expect([editor.role, viewer.role]).toEqual(['editor', 'viewer']);
    const renamed = await asAdmin('PATCH', `/api/v1/users/${viewer.id}`, {
      name: 'Renamed',
      role: 'editor',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', role: 'editor' });

    expectProblem(await asAdmin('POST', '/api/v1/users', newUser('owner')), 403, 'forbidden');
    expectProblem(
      await asAdmin('PATCH', `/api/v1/users/${viewer.id}`, { role: 'owner' }),
      403,
      'forbidden',
    );
    const owner = `/api/v1/users/${t.owner.userId}`;
    expectProblem(await asAdmin('PATCH', owner, { name: 'Hijacked' }), 403, 'forbidden');
    expectProblem(await asAdmin('PATCH', owner, { role: 'viewer' }), 403, 'forbidden');
    expectProblem(await asAdmin('PATCH', owner, { disabled: true }), 403, 'forbidden');
    expectProblem(
      await asAdmin('POST', `${owner}/password`, { password: 'taken over passphrase' }),
      403,
      'forbidden',
    );
    // The owner can do all of it.
    const second = await asOwner('POST', '/api/v1/users', newUser('owner'));
    expect(second.statusCode, second.body).toBe(201);
    const promoted = await asOwner('PATCH', `/api/v1/users/${viewer.id}`, { role: 'owner' });
    expect(promoted.json()).toMatchObject({ role: 'owner' });
    // Tidy up: one owner again, for the last-owner rule below.
    for (const id of [second.json<User>().id, viewer.id])
      expect((await asOwner('PATCH', `/api/v1/users/${id}`, { role: 'admin' })).statusCode).toBe(
        200,
      );
  });

  it('the last owner cannot be demoted or disabled, not even by themselves', async () => {
    const users = (await t.inject({ url: '/api/v1/users' })).json<{ items: User[] }>().items;
    const owners = users.filter((u) => u.role === 'owner' && !u.disabled);
    expect(owners.map((u) => u.id)).toEqual([t.owner.userId]);
    const self = `/api/v1/users/${t.owner.userId}`;
    expectProblem(await asOwner('PATCH', self, { role: 'admin' }), 409, 'conflict');
    expectProblem(await asOwner('PATCH', self, { disabled: true }), 409, 'conflict');
    // With a second owner, either may step down.
    const other = User.parse((await asOwner('POST', '/api/v1/users', newUser('owner'))).json());
    expect(
      (await asOwner('PATCH', `/api/v1/users/${other.id}`, { disabled: true })).statusCode,
    ).toBe(200);
    // A disabled owner does not count: the original is the last active one again.
    expectProblem(await asOwner('PATCH', self, { role: 'admin' }), 409, 'conflict');
  });

  it('owners stepping down at the same moment cannot leave the instance without one', async () => {
    // Three owners each remove another at once: one of the three must be refused.
    for (let round = 0; round < 3; round++) {
      const fresh = await startTestApp({ engine });
      try {
        const b = await fresh.identity('owner');
        const c = await fresh.identity('owner');
        const patch = (by: Identity, target: number, body: unknown) =>
          fresh.inject({
            method: 'PATCH',
            url: `/api/v1/users/${target}`,
            ...jsonAs(by.headers, body),
          });
        const answers = await Promise.all([
          patch(b, fresh.owner.userId, { role: 'admin' }),
          patch(c, b.userId, { disabled: true }),
          patch(fresh.owner, c.userId, { role: 'viewer' }),
        ]);
        // Refused as the last owner (409), or because the caller lost the owner role first (403).
        const codes = answers.map((a) => a.statusCode);
        expect(codes.filter((c) => c === 200).length, codes.join()).toBeLessThan(3);
        const owners = await fresh.database.db
          .selectFrom('users')
          .select('id')
          .where('role', '=', 'owner')
          .where('disabled', '=', 0)
          .execute();
        expect(owners.length).toBeGreaterThanOrEqual(1);
      } finally {
        await fresh.stop();
      }
    }
  });

  it("a role change, a disable and a password reset each end that person's sessions", async () => {
    const person = User.parse((await asAdmin('POST', '/api/v1/users', newUser('viewer'))).json());
    let token = await insertSession(t, person.id);
    expect(await cookieWorks(token)).toBe(200);
    await asAdmin('PATCH', `/api/v1/users/${person.id}`, { role: 'editor' });
    expect(await cookieWorks(token)).toBe(401);

    token = await insertSession(t, person.id);
    await asAdmin('POST', `/api/v1/users/${person.id}/password`, {
      password: 'reset passphrase 1',
    });
    expect(await cookieWorks(token)).toBe(401);
    const login = (password: string) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...jsonAs(anonymous, { email: person.email, password }),
      });
    expectProblem(await login(PASSWORD), 401, 'unauthenticated');
    expect((await login('reset passphrase 1')).statusCode).toBe(200);

    token = await insertSession(t, person.id);
    await asAdmin('PATCH', `/api/v1/users/${person.id}`, { disabled: true });
    expect(await cookieWorks(token)).toBe(401);
    expectProblem(await login('reset passphrase 1'), 401, 'unauthenticated');
    // A session row that survived somehow is refused too while the person is disabled.
    expect(await cookieWorks(await insertSession(t, person.id))).toBe(401);
  });

  it('a second account with the same email is a conflict, whatever its case', async () => {
    const email = `dup-${++seq}@example.com`;
    await created(await asAdmin('POST', '/api/v1/users', newUser('viewer', email)));
    expectProblem(
      await asAdmin('POST', '/api/v1/users', newUser('editor', email)),
      409,
      'conflict',
    );
    expectProblem(
      await asAdmin('POST', '/api/v1/users', newUser('editor', email.toUpperCase())),
      409,
      'conflict',
    );
    // Sent twice at once (a double click): one account, one conflict, no 500.
    const twice = `twice-${++seq}@example.com`;
    const answers = await Promise.all([
      asAdmin('POST', '/api/v1/users', newUser('viewer', twice)),
      asAdmin('POST', '/api/v1/users', newUser('viewer', twice)),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expectProblem(
      answers.find((a) => a.statusCode === 409)!,
      409,
      'conflict',
    );
  });

  it('viewers and editors get 403 on users and the audit log', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const who = await t.identity(role);
      const session = await sessionFor(t, who.userId);
      for (const headers of [who.headers, session.headers]) {
        expectProblem(await t.inject({ url: '/api/v1/users', headers }), 403, 'forbidden');
        expectProblem(await t.inject({ url: '/api/v1/audit', headers }), 403, 'forbidden');
        expectProblem(
          await t.inject({
            method: 'POST',
            url: '/api/v1/users',
            ...jsonAs(headers, newUser('viewer')),
          }),
          403,
          'forbidden',
        );
        expectProblem(
          await t.inject({
            method: 'PATCH',
            url: `/api/v1/users/${who.userId}`,
            ...jsonAs(headers, { role: 'admin' }),
          }),
          403,
          'forbidden',
        );
      }
    }
  });

  it('each of these actions leaves an audit event with actor, IP and a summary', async () => {
    const person = await created(await asAdmin('POST', '/api/v1/users', newUser('viewer')));
    await asAdmin('PATCH', `/api/v1/users/${person.id}`, { role: 'editor' });
    await asAdmin('PATCH', `/api/v1/users/${person.id}`, { disabled: true });
    await asAdmin('POST', `/api/v1/users/${person.id}/password`, {
      password: 'audited passphrase',
    });
    const expectations: [string, RegExp][] = [
      ['user.created', /viewer/],
      ['user.updated', /viewer → editor/],
      ['user.updated', /disabled/],
      ['user.password_reset', /./],
    ];
    for (const [action, summary] of expectations) {
      const events = (await audit(action)).filter(
        (e) => e.target?.type === 'user' && e.target.id === String(person.id),
      );
      const event = events.find((e) => summary.test(e.summary));
      expect(event, `${action} ${summary}`).toBeDefined();
      expect(event!.actor).toEqual({ type: 'user', id: admin.userId, label: admin.email });
      expect(event!.ip).toBe(ADMIN_IP);
      expect(event!.summary).toContain(person.email);
      expect(event!.summary).not.toContain(PASSWORD);
      expect(event!.summary).not.toContain('audited passphrase');
    }
    // An API key is named as the actor when it did the work.
    const byKey = await t.inject({
      method: 'POST',
      url: '/api/v1/users',
      ...jsonAs(admin.headers, newUser('viewer')),
    });
    const keyed = (await audit('user.created')).find(
      (e) => e.target?.id === String(byKey.json<User>().id),
    );
    expect(keyed?.actor).toMatchObject({ type: 'api_key', id: expect.any(Number) });
  });

  it('failed sign-ins are audited, for known and unknown emails alike', async () => {
    const person = await t.identity('viewer');
    const from = '198.51.100.23';
    for (const email of [person.email, 'ghost@example.com']) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...jsonAs(anonymous, { email, password: 'secret guess 123' }),
        remoteAddress: from,
      });
      expectProblem(res, 401, 'unauthenticated');
    }
    const failed = (await audit('auth.login_failed')).filter((e) => e.ip === from);
    expect(failed).toHaveLength(2);
    const known = failed.find((e) => e.target?.id === String(person.userId));
    expect(known?.summary).toContain(person.email);
    // What was typed for an unknown account may be a password: only a keyed hash of it is kept.
    const unknown = failed.find((e) => e.target === null);
    expect(unknown?.summary).toMatch(
      /^Failed sign-in for an unknown account \(typed text ref \S+\)$/,
    );
    expect(unknown?.summary).not.toContain('ghost');
    for (const e of failed) {
      expect(e.actor.type).toBe('anonymous');
      expect(e.summary).not.toContain('secret guess 123');
    }
  });
});
