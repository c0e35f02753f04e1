import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import {
  anonymous,
  expectProblem,
  insertSession,
  json,
  jsonAs,
  login,
  sessionCookieOf,
  sessionFor,
} from './helpers.js';

const DAY = 86_400_000;
const setupBody = (email: string) => ({
  email,
  name: 'First Owner',
  password: 'a long enough passphrase',
});

describe.each(engines)('first-run setup on %s', (engine) => {
  it('works once; a second attempt is forbidden', async () => {
    const t = await startTestApp({ engine, setup: false });
    try {
      const status = await t.inject({ url: '/api/v1/auth/status', headers: anonymous });
      expect(status.json()).toMatchObject({ setupRequired: true });
      const first = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...jsonAs(anonymous, setupBody('first@example.com')),
      });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ user: { role: 'owner', email: 'first@example.com' } });
      expect(sessionCookieOf(first)).toBeTruthy();
      const second = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...jsonAs(anonymous, setupBody('second@example.com')),
      });
      expectProblem(second, 403, 'forbidden');
      expect(sessionCookieOf(second)).toBeNull();
      const after = await t.inject({ url: '/api/v1/auth/status', headers: anonymous });
      expect(after.json()).toMatchObject({ setupRequired: false });
    } finally {
      await t.stop();
    }
  });

  it('setups fired at once on a fresh server: exactly one owner is created', async () => {
    // Several rounds with four racers: a lost race is rare enough to hide behind one try.
    for (let round = 0; round < 3; round++) {
      const t = await startTestApp({ engine, setup: false });
      try {
        const answers = await Promise.all(
          [1, 2, 3, 4].map((n) =>
            t.inject({
              method: 'POST',
              url: '/api/v1/auth/setup',
              ...jsonAs(anonymous, setupBody(`racer-${n}@example.com`)),
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403, 403, 403]);
        const users = await t.database.db.selectFrom('users').select(['email', 'role']).execute();
        expect(users).toHaveLength(1);
        expect(users[0]!.role).toBe('owner');
      } finally {
        await t.stop();
      }
    }
  });

  it('from another machine, setup needs the one-time token printed at start-up', async () => {
    const t = await startTestApp({ engine, setup: false });
    try {
      const remote = { remoteAddress: '192.0.2.10' };
      const status = await t.inject({ url: '/api/v1/auth/status', headers: anonymous, ...remote });
      expect(status.json()).toEqual({
        setupRequired: true,
        setupTokenRequired: true,
        signedIn: false,
        passwordResetByMail: false,
      });
      for (const setupToken of [undefined, 'wrong-token', `${t.setupToken}x`]) {
        const res = await t.inject({
          method: 'POST',
          url: '/api/v1/auth/setup',
          ...jsonAs(anonymous, { ...setupBody('remote@example.com'), setupToken }),
          ...remote,
        });
        expectProblem(res, 400, 'validation_failed');
        expect(res.json().errors[0].path).toBe('setupToken');
        expect(res.body).not.toContain(t.setupToken);
      }
      // A forged X-Forwarded-For does not make a remote caller local (the proxy is not trusted).
      const forged = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...jsonAs(
          { authorization: '', 'x-forwarded-for': '127.0.0.1' },
          setupBody('f@example.com'),
        ),
        ...remote,
      });
      expectProblem(forged, 400, 'validation_failed');
      const ok = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...jsonAs(anonymous, { ...setupBody('remote@example.com'), setupToken: t.setupToken }),
        ...remote,
      });
      expect(ok.statusCode, ok.body).toBe(201);
    } finally {
      await t.stop();
    }
  });
});

describe.each(engines)('sessions on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  const me = (cookie: { cookie: string }) => t.inject({ url: '/api/v1/auth/me', headers: cookie });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure over plain http', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: t.owner.email, password: t.owner.password }),
    });
    expect(res.statusCode).toBe(200);
    const raw = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('pw_session='));
    expect(raw).toBeDefined();
    const attrs = raw!.split(';').map((p) => p.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    expect(attrs).not.toContain('secure');
    expect(attrs.some((a) => a.startsWith('expires='))).toBe(true);
    // The token itself has at least 128 random bits (SPEC §3).
    expect(sessionCookieOf(res)!.length).toBeGreaterThanOrEqual(22);
  });

  it('a forged X-Forwarded-Proto does not make the cookie Secure when the proxy is not trusted', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: JSON.stringify({ email: t.owner.email, password: t.owner.password }),
      headers: {
        'content-type': 'application/json',
        authorization: '',
        'x-forwarded-proto': 'https',
      },
    });
    expect(res.statusCode).toBe(200);
    const raw = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('pw_session='));
    expect(raw!.toLowerCase()).not.toMatch(/;\s*secure/);
  });

  it('every sign-in starts a new session id, stored only hashed', async () => {
    const a = await login(t, t.owner.email, t.owner.password);
    const b = await login(t, t.owner.email, t.owner.password);
    expect(a.token).not.toBe(b.token);
    expect(a.csrfToken).not.toBe(b.csrfToken);
    const rows = await t.database.db.selectFrom('sessions').select('id_hash').execute();
    const ids = rows.map((r) => r.id_hash);
    expect(ids).toContain(sha256(a.token));
    expect(ids).not.toContain(a.token);
    // A cookie set before sign-in is not adopted: the server always issues its own.
    const fixed = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(
        { authorization: '', cookie: 'pw_session=attacker-chosen' },
        {
          email: t.owner.email,
          password: t.owner.password,
        },
      ),
    });
    expect(sessionCookieOf(fixed)).not.toBe('attacker-chosen');
  });

  it('a cookie from before logout is dead', async () => {
    const s = await login(t, t.owner.email, t.owner.password);
    expect((await me(s.cookie)).statusCode).toBe(200);
    const out = await t.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === 'pw_session');
    expect(cleared?.value ?? '').toBe('');
    expectProblem(await me(s.cookie), 401, 'unauthenticated');
  });

  it('logout-all ends every session of the person, and only theirs', async () => {
    const person = await t.identity('viewer');
    const a = await login(t, person.email, person.password);
    const b = await login(t, person.email, person.password);
    const other = await login(t, t.owner.email, t.owner.password);
    const out = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/logout-all',
      headers: a.headers,
    });
    expect(out.statusCode).toBe(204);
    expectProblem(await me(a.cookie), 401, 'unauthenticated');
    expectProblem(await me(b.cookie), 401, 'unauthenticated');
    expect((await me(other.cookie)).statusCode).toBe(200);
  });

  it('a password change ends the other sessions; the current one continues under a new id', async () => {
    const person = await t.identity('viewer');
    const current = await login(t, person.email, person.password);
    const elsewhere = await login(t, person.email, person.password);
    const res = await t.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      ...jsonAs(current.headers, { current: person.password, next: 'a brand new passphrase' }),
    });
    expect(res.statusCode, res.body).toBe(204);
    const renewed = sessionCookieOf(res);
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(current.token);
    expect((await me({ cookie: `pw_session=${renewed}` })).statusCode).toBe(200);
    expectProblem(await me(current.cookie), 401, 'unauthenticated');
    expectProblem(await me(elsewhere.cookie), 401, 'unauthenticated');
    // The old password is gone, the new one works.
    const old = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: person.email, password: person.password }),
    });
    expectProblem(old, 401, 'unauthenticated');
    await login(t, person.email, 'a brand new passphrase');
  });

  describe('CSRF', () => {
    it('a cookie-authenticated POST, PUT or DELETE without the token is refused', async () => {
      const editor = await t.identity('editor');
      const s = await sessionFor(t, editor.userId);
      const monitor = (
        await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(monitorInput()) })
      ).json<{ id: number }>();
      const attempts = [
        { method: 'POST' as const, url: '/api/v1/monitors', body: monitorInput() },
        { method: 'PUT' as const, url: `/api/v1/monitors/${monitor.id}`, body: monitorInput() },
        { method: 'DELETE' as const, url: `/api/v1/monitors/${monitor.id}` },
        { method: 'POST' as const, url: `/api/v1/monitors/${monitor.id}/pause` },
      ];
      for (const a of attempts) {
        const payload = a.body ? { payload: JSON.stringify(a.body) } : {};
        const ct = a.body ? { 'content-type': 'application/json' } : {};
        const missing = await t.inject({
          method: a.method,
          url: a.url,
          headers: { ...ct, ...s.cookie },
          ...payload,
        });
        expectProblem(missing, 403, 'forbidden');
        const wrong = await t.inject({
          method: a.method,
          url: a.url,
          headers: { ...ct, ...s.cookie, 'x-csrf-token': `${s.csrfToken.slice(0, -2)}xx` },
          ...payload,
        });
        expectProblem(wrong, 403, 'forbidden');
      }
      // Nothing happened: the monitor is still there, unpaused.
      const still = await t.inject({ url: `/api/v1/monitors/${monitor.id}` });
      expect(still.json()).toMatchObject({ id: monitor.id, paused: false });
    });

    it('the token from /auth/me makes the same requests work', async () => {
      const editor = await t.identity('editor');
      const s = await sessionFor(t, editor.userId);
      const meRes = await me(s.cookie);
      const token = meRes.json<{ csrfToken: string }>().csrfToken;
      const headers = { ...s.cookie, 'x-csrf-token': token };
      const created = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...jsonAs(headers, monitorInput()),
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: number }>().id;
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${id}`,
        ...jsonAs(headers, monitorInput({ name: 'Renamed' })),
      });
      expect(put.statusCode, put.body).toBe(200);
      const del = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${id}`, headers });
      expect(del.statusCode).toBe(204);
    });

    it("one session's token does not work with another session's cookie", async () => {
      const editor = await t.identity('editor');
      const a = await sessionFor(t, editor.userId);
      const b = await sessionFor(t, editor.userId);
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...jsonAs({ ...a.cookie, 'x-csrf-token': b.csrfToken }, monitorInput()),
      });
      expectProblem(res, 403, 'forbidden');
    });

    it('GET needs no token, and API-key requests need none either', async () => {
      const editor = await t.identity('editor');
      const s = await sessionFor(t, editor.userId);
      expect((await t.inject({ url: '/api/v1/monitors', headers: s.cookie })).statusCode).toBe(200);
      const created = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...jsonAs(editor.headers, monitorInput()),
      });
      expect(created.statusCode, created.body).toBe(201);
    });
  });

  describe('expiry (SPEC §9: 30 days absolute, 7 days idle)', () => {
    const sessionRow = (token: string) =>
      t.database.db
        .selectFrom('sessions')
        .select(['id_hash', 'last_seen_at'])
        .where('id_hash', '=', sha256(token))
        .executeTakeFirst();

    it('a session past its absolute expiry is refused and removed', async () => {
      const now = Date.now();
      const token = await insertSession(t, t.owner.userId, {
        createdAt: now - 31 * DAY,
        lastSeenAt: now - 60_000,
        expiresAt: now - 1000,
      });
      expectProblem(await me({ cookie: `pw_session=${token}` }), 401, 'unauthenticated');
      expect(await sessionRow(token)).toBeUndefined();
    });

    it('a session idle for more than 7 days is refused, even before its absolute expiry', async () => {
      const now = Date.now();
      const token = await insertSession(t, t.owner.userId, {
        createdAt: now - 8 * DAY,
        lastSeenAt: now - 7 * DAY - 60_000,
        expiresAt: now + 22 * DAY,
      });
      expectProblem(await me({ cookie: `pw_session=${token}` }), 401, 'unauthenticated');
      expect(await sessionRow(token)).toBeUndefined();
    });

    it('a session used within 7 days lives on, and its last-seen time moves forward', async () => {
      const now = Date.now();
      const lastSeenAt = now - 6 * DAY;
      const token = await insertSession(t, t.owner.userId, {
        createdAt: now - 10 * DAY,
        lastSeenAt,
        expiresAt: now + 20 * DAY,
      });
      expect((await me({ cookie: `pw_session=${token}` })).statusCode).toBe(200);
      expect((await sessionRow(token))!.last_seen_at).toBeGreaterThan(lastSeenAt);
    });
  });
});
