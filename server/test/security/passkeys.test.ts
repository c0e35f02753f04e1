import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import {
  SoftAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../support/webauthn.js';
import {
  anonymous,
  expectProblem,
  jsonAs,
  login,
  sessionCookieOf,
  type BrowserSession,
} from './helpers.js';

const ORIGIN = 'https://pagewatch.test';
let ipSeq = 0;
const freshIp = () => `10.21.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe.each(engines)('passkeys (WebAuthn) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine, config: { publicUrl: ORIGIN } });
  });
  afterAll(async () => t?.stop());

  const post = (
    url: string,
    body: unknown,
    headers: Record<string, string> = anonymous,
    remoteAddress?: string,
  ) =>
    t.inject({
      method: 'POST',
      url,
      ...jsonAs(headers, body),
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  const asSession = (token: string, csrfToken: string): BrowserSession => ({
    token,
    csrfToken,
    cookie: { cookie: `pw_session=${token}` },
    headers: { cookie: `pw_session=${token}`, 'x-csrf-token': csrfToken },
  });

  /** Registers a passkey on `auth` for the signed-in session; answers the rotated session. */
  async function register(
    s: BrowserSession,
    auth: SoftAuthenticator,
    name = 'Laptop',
    origin = ORIGIN,
  ) {
    const opts = await post('/api/v1/auth/passkeys/register/options', {}, s.headers);
    expect(opts.statusCode, opts.body).toBe(200);
    const options = opts.json<CreationOptions>();
    const res = await post(
      '/api/v1/auth/passkeys/register',
      { name, response: auth.create(options, origin) },
      s.headers,
    );
    const token = sessionCookieOf(res);
    return { res, options, session: token ? asSession(token, '') : s };
  }

  /** The session after a rotation: its CSRF token comes from /auth/me. */
  async function refreshed(s: BrowserSession): Promise<BrowserSession> {
    const me = await t.inject({ url: '/api/v1/auth/me', headers: s.cookie });
    expect(me.statusCode, me.body).toBe(200);
    return asSession(s.token, me.json<{ csrfToken: string }>().csrfToken);
  }

  async function person(role: 'viewer' | 'editor' = 'viewer') {
    const id = await t.identity(role);
    return { id, session: await login(t, id.email, id.password, freshIp()) };
  }

  async function passwordless(
    auth: SoftAuthenticator,
    ip = freshIp(),
    opts: { counter?: number; origin?: string } = {},
  ) {
    const o = await post('/api/v1/auth/passkeys/sign-in/options', {}, anonymous, ip);
    expect(o.statusCode, o.body).toBe(200);
    const options = o.json<
      RequestOptions & { userVerification: string; allowCredentials?: unknown[] }
    >();
    return {
      options,
      res: await post(
        '/api/v1/auth/passkeys/sign-in',
        { response: auth.get(options, opts.origin ?? ORIGIN, opts) },
        anonymous,
        ip,
      ),
    };
  }

  it('registers several named passkeys; the first brings recovery codes, options exclude those held', async () => {
    const { id, session } = await person();
    const auth = new SoftAuthenticator();
    const first = await register(session, auth, 'Laptop');
    expect(first.res.statusCode, first.res.body).toBe(201);
    expect(first.options.rp.id).toBe('pagewatch.test');
    const body = first.res.json<{
      passkey: { name: string; lastUsedAt: null };
      recoveryCodes: string[];
    }>();
    expect(body.passkey).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    expect(body.recoveryCodes).toHaveLength(10);
    // A privilege change: the session got a fresh id, the old one is gone.
    expect(first.session.token).not.toBe(session.token);
    expect((await t.inject({ url: '/api/v1/auth/me', headers: session.cookie })).statusCode).toBe(
      401,
    );

    const s2 = await refreshed(first.session);
    const phone = new SoftAuthenticator();
    const second = await register(s2, phone, 'Phone');
    expect(second.res.statusCode, second.res.body).toBe(201);
    expect(second.options.excludeCredentials).toHaveLength(1);
    expect(second.res.json<{ recoveryCodes: string[] }>().recoveryCodes).toEqual([]);
    // The same authenticator again is refused by the browser side (excludeCredentials).
    const s3 = await refreshed(second.session);
    await expect(register(s3, auth)).rejects.toThrow(/InvalidStateError/);

    const list = await t.inject({ url: '/api/v1/auth/passkeys', headers: s3.cookie });
    // Names and dates only: never the credential id or the public key.
    expect(list.body).not.toContain(auth.held[0]!.id.toString('base64url'));
    expect(Object.keys(list.json<{ passkeys: object[] }>().passkeys[0]!).sort()).toEqual([
      'backedUp',
      'createdAt',
      'id',
      'lastUsedAt',
      'name',
    ]);
    expect(list.json<{ passkeys: { name: string }[] }>().passkeys.map((p) => p.name)).toEqual([
      'Laptop',
      'Phone',
    ]);
    const audit = (await t.inject({ url: '/api/v1/audit?limit=20' })).body;
    expect(audit).toContain('Added passkey \\"Phone\\"');
    expect(id.userId).toBeGreaterThan(0);
  });

  it('a challenge is used once and lapses; a response for another origin or RP is refused', async () => {
    const { session } = await person();
    const auth = new SoftAuthenticator();
    const opts = (
      await post('/api/v1/auth/passkeys/register/options', {}, session.headers)
    ).json<CreationOptions>();
    const wrongOrigin = auth.create(opts, 'https://evil.test');
    const refused = await post(
      '/api/v1/auth/passkeys/register',
      { name: 'X', response: wrongOrigin },
      session.headers,
    );
    expectProblem(refused, 400, 'validation_failed');
    // That attempt spent the challenge: the right answer to it is now refused too.
    const late = await post(
      '/api/v1/auth/passkeys/register',
      { name: 'X', response: new SoftAuthenticator().create(opts, ORIGIN) },
      session.headers,
    );
    expectProblem(late, 401, 'unauthenticated');

    // A lapsed challenge (older than two minutes) is refused.
    const opts2 = (
      await post('/api/v1/auth/passkeys/register/options', {}, session.headers)
    ).json<CreationOptions>();
    await t.database.db
      .updateTable('webauthn_challenges')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const lapsed = await post(
      '/api/v1/auth/passkeys/register',
      { name: 'X', response: auth.create(opts2, ORIGIN) },
      session.headers,
    );
    expectProblem(lapsed, 401, 'unauthenticated');
  });

  it('signs in without a password; replay, a cloned counter and a foreign origin are refused and audited', async () => {
    const { id, session } = await person();
    const auth = new SoftAuthenticator();
    expect((await register(session, auth)).res.statusCode).toBe(201);

    const { options, res } = await passwordless(auth);
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(res.statusCode, res.body).toBe(200);
    const token = sessionCookieOf(res)!;
    const me = await t.inject({
      url: '/api/v1/auth/me',
      headers: { cookie: `pw_session=${token}` },
    });
    expect(me.json<{ user: { email: string } }>().user.email).toBe(id.email);

    // The same signed answer again: its challenge is spent.
    const o = (await post('/api/v1/auth/passkeys/sign-in/options', {})).json<RequestOptions>();
    const answer = auth.get(o, ORIGIN);
    expect((await post('/api/v1/auth/passkeys/sign-in', { response: answer })).statusCode).toBe(
      200,
    );
    expectProblem(
      await post('/api/v1/auth/passkeys/sign-in', { response: answer }),
      401,
      'unauthenticated',
    );

    // The counter goes back (a copy of the key elsewhere): refused, audited as a suspected clone.
    const cloned = await passwordless(auth, freshIp(), { counter: 1 });
    expectProblem(cloned.res, 401, 'unauthenticated');
    const audit = await t.inject({ url: '/api/v1/audit?limit=20' });
    expect(audit.body).toContain('auth.passkey_clone_suspected');
    expect(audit.body).toContain('with passkey');

    const foreign = await passwordless(auth, freshIp(), { origin: 'https://evil.test' });
    expectProblem(foreign.res, 401, 'unauthenticated');

    const list = await t.inject({
      url: '/api/v1/auth/passkeys',
      headers: { cookie: `pw_session=${token}` },
    });
    expect(
      list.json<{ passkeys: { lastUsedAt: string | null }[] }>().passkeys[0]!.lastUsedAt,
    ).not.toBeNull();
  });

  it('a synced passkey (counter always 0) signs in again and again', async () => {
    const { session } = await person();
    const synced = new SoftAuthenticator(0);
    expect((await register(session, synced)).res.statusCode).toBe(201);
    for (let i = 0; i < 2; i++) expect((await passwordless(synced)).res.statusCode).toBe(200);
  });

  it('stands in for TOTP after the password; recovery codes still work; removing it drops the step', async () => {
    const { id, session } = await person();
    const auth = new SoftAuthenticator();
    const reg = await register(session, auth);
    const codes = reg.res.json<{ recoveryCodes: string[] }>().recoveryCodes;

    const ip = freshIp();
    const step1 = await post(
      '/api/v1/auth/login',
      { email: id.email, password: id.password },
      anonymous,
      ip,
    );
    const first = step1.json<{ status: string; challenge: string; methods: string[] }>();
    expect(first).toMatchObject({ status: 'totp_required', methods: ['passkey'] });
    const o = await post(
      '/api/v1/auth/login/passkey/options',
      { challenge: first.challenge },
      anonymous,
      ip,
    );
    expect(o.statusCode, o.body).toBe(200);
    const options = o.json<RequestOptions & { allowCredentials: { id: string }[] }>();
    expect(options.allowCredentials.map((c) => c.id)).toEqual([
      auth.held[0]!.id.toString('base64url'),
    ]);
    // Another person's password challenge does not go with this passkey answer.
    const other = await person();
    const otherStep = (
      await post(
        '/api/v1/auth/login',
        { email: other.id.email, password: other.id.password },
        anonymous,
        freshIp(),
      )
    ).json<{ status: string }>();
    expect(otherStep.status).toBe('signed_in');
    const done = await post(
      '/api/v1/auth/login/passkey',
      { challenge: first.challenge, response: auth.get(options, ORIGIN) },
      anonymous,
      ip,
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(sessionCookieOf(done)).toBeTruthy();
    // The password step's challenge is finished with.
    const again = await post(
      '/api/v1/auth/login/passkey/options',
      { challenge: first.challenge },
      anonymous,
      ip,
    );
    expectProblem(again, 401, 'unauthenticated');

    // Lost the device: a recovery code finishes the password sign-in instead.
    const step2 = (
      await post(
        '/api/v1/auth/login',
        { email: id.email, password: id.password },
        anonymous,
        freshIp(),
      )
    ).json<{ challenge: string }>();
    const rec = await post(
      '/api/v1/auth/login/totp',
      { challenge: step2.challenge, code: codes[0] },
      anonymous,
    );
    expect(rec.statusCode, rec.body).toBe(200);

    // Rename, then remove: the password alone signs in again.
    const s = await refreshed(asSession(sessionCookieOf(rec)!, ''));
    const list = (await t.inject({ url: '/api/v1/auth/passkeys', headers: s.cookie })).json<{
      passkeys: { id: number }[];
    }>();
    const pid = list.passkeys[0]!.id;
    const renamed = await t.inject({
      method: 'PATCH',
      url: `/api/v1/auth/passkeys/${pid}`,
      ...jsonAs(s.headers, { name: 'Old laptop' }),
    });
    expect(renamed.json<{ name: string }>().name).toBe('Old laptop');
    const removed = await t.inject({
      method: 'DELETE',
      url: `/api/v1/auth/passkeys/${pid}`,
      headers: s.headers,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expectProblem(
      await t.inject({ method: 'DELETE', url: `/api/v1/auth/passkeys/${pid}`, headers: s.headers }),
      404,
      'not_found',
    );
    const after = await post(
      '/api/v1/auth/login',
      { email: id.email, password: id.password },
      anonymous,
      freshIp(),
    );
    expect(after.json<{ status: string }>().status).toBe('signed_in');
    const audit = (await t.inject({ url: '/api/v1/audit?limit=50' })).body;
    for (const action of [
      'auth.passkey_registered',
      'auth.passkey_renamed',
      'auth.passkey_removed',
    ])
      expect(audit).toContain(action);
  });

  it('someone else’s passkey cannot be renamed or removed', async () => {
    const a = await person();
    const auth = new SoftAuthenticator();
    const reg = await register(a.session, auth);
    const pid = reg.res.json<{ passkey: { id: number } }>().passkey.id;
    const b = await person();
    expectProblem(
      await t.inject({
        method: 'PATCH',
        url: `/api/v1/auth/passkeys/${pid}`,
        ...jsonAs(b.session.headers, { name: 'Mine' }),
      }),
      404,
      'not_found',
    );
    expectProblem(
      await t.inject({
        method: 'DELETE',
        url: `/api/v1/auth/passkeys/${pid}`,
        headers: b.session.headers,
      }),
      404,
      'not_found',
    );
  });

  it('failed passkey sign-ins count like failed passwords: the IP is throttled after ten', async () => {
    const ip = freshIp();
    const stranger = new SoftAuthenticator();
    stranger.create(
      { challenge: 'x', rp: { id: 'pagewatch.test', name: 'x' }, user: { id: 'AA', name: 'x' } },
      ORIGIN,
    );
    for (let i = 0; i < 10; i++)
      expectProblem((await passwordless(stranger, ip)).res, 401, 'unauthenticated');
    expectProblem(
      await post('/api/v1/auth/passkeys/sign-in/options', {}, anonymous, ip),
      429,
      'rate_limited',
    );
  });
});

describe.each(engines)('relying party without a public URL on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  it('is the address the browser used (http://localhost works: a secure context)', async () => {
    const id = await t.identity('viewer');
    const s = await login(t, id.email, id.password, freshIp());
    const opts = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register/options',
      ...jsonAs({ ...s.headers, host: 'localhost:5173' }, {}),
    });
    const options = opts.json<CreationOptions>();
    expect(options.rp.id).toBe('localhost');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register',
      ...jsonAs(
        { ...s.headers, host: 'localhost:5173' },
        { name: 'Dev', response: new SoftAuthenticator().create(options, 'http://localhost:5173') },
      ),
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
