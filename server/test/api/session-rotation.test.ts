import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestApp, type TestApp } from '../support/app.js';

function cookieOf(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith('pw_session='));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0]!;
}

/** SPEC/issue: the session id is rotated on sign-in and on every privilege change. */
describe('session rotation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite' });
  });
  afterAll(async () => t.stop());

  async function signIn(password = OWNER.password) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: OWNER.email, password },
      headers: { authorization: '' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return {
      cookie: cookieOf(res.headers['set-cookie']),
      csrf: res.json().session.csrfToken as string,
    };
  }

  const me = (cookie: string) => t.inject({ url: '/api/v1/auth/me', headers: { cookie } });

  it('gives a new id at every sign-in', async () => {
    const a = await signIn();
    const b = await signIn();
    expect(a.cookie).not.toBe(b.cookie);
    expect((await me(a.cookie)).statusCode).toBe(200);
  });

  it('replaces the session after a password change: the old id dies, the new one works', async () => {
    const s = await signIn();
    const res = await t.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      payload: { current: OWNER.password, next: 'another long passphrase' },
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    expect(res.statusCode, res.body).toBe(204);
    const fresh = cookieOf(res.headers['set-cookie']);
    expect(fresh).not.toBe(s.cookie);
    expect((await me(s.cookie)).statusCode).toBe(401);
    expect((await me(fresh)).statusCode).toBe(200);
    // Back to the shared password for the next test.
    const csrf = (await me(fresh)).json().csrfToken as string;
    await t.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      payload: { current: 'another long passphrase', next: OWNER.password },
      headers: { cookie: fresh, 'x-csrf-token': csrf },
    });
  });

  it('replaces the session when two-factor is turned on', async () => {
    const s = await signIn();
    const headers = { cookie: s.cookie, 'x-csrf-token': s.csrf };
    const enrol = await t.inject({ method: 'POST', url: '/api/v1/auth/totp/enrol', headers });
    const { secret } = enrol.json<{ secret: string }>();
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/totp/confirm',
      payload: { code },
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().recoveryCodes).toHaveLength(10);
    const fresh = cookieOf(res.headers['set-cookie']);
    expect((await me(s.cookie)).statusCode).toBe(401);
    expect((await me(fresh)).json().user.totpEnabled).toBe(true);
  });
});
