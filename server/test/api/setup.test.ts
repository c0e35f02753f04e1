import { AuthStatus, Session } from '@pagewatch/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const owner = {
  email: 'first@example.com',
  name: 'First Owner',
  password: 'a long enough passphrase',
};
const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', authorization: '' },
});

describe('first-run setup', () => {
  let t: TestApp;
  afterEach(async () => t.stop());

  it('is required until the owner exists, then never again', async () => {
    t = await startTestApp({ engine: 'sqlite', setup: false });
    const before = AuthStatus.parse(
      (await t.inject({ url: '/api/v1/auth/status', headers: { authorization: '' } })).json(),
    );
    expect(before).toEqual({
      setupRequired: true,
      setupTokenRequired: false,
      signedIn: false,
      passwordResetByMail: false,
    });
    const res = await t.inject({ method: 'POST', url: '/api/v1/auth/setup', ...json(owner) });
    expect(res.statusCode).toBe(201);
    expect(Session.parse(res.json()).user).toMatchObject({
      email: owner.email,
      role: 'owner',
      totpEnabled: false,
    });
    expect(res.headers['set-cookie']).toMatch(/^pw_session=/);
    const after = AuthStatus.parse(
      (await t.inject({ url: '/api/v1/auth/status', headers: { authorization: '' } })).json(),
    );
    expect(after.setupRequired).toBe(false);
    const again = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/setup',
      ...json({ ...owner, email: 'second@example.com' }),
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ type: 'forbidden' });
  });

  it('from another machine, needs the one-time token printed in the log', async () => {
    t = await startTestApp({ engine: 'sqlite', setup: false });
    const remote = { remoteAddress: '203.0.113.7' };
    const status = AuthStatus.parse(
      (
        await t.inject({ url: '/api/v1/auth/status', headers: { authorization: '' }, ...remote })
      ).json(),
    );
    expect(status).toEqual({
      setupRequired: true,
      setupTokenRequired: true,
      signedIn: false,
      passwordResetByMail: false,
    });
    for (const setupToken of [undefined, 'wrong-token']) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...json({ ...owner, setupToken }),
        ...remote,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([
        expect.objectContaining({ path: 'setupToken', code: 'wrong_setup_token' }),
      ]);
    }
    const ok = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/setup',
      ...json({ ...owner, setupToken: t.setupToken }),
      ...remote,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('says whether the browser is signed in, so a signed-out one never asks /auth/me', async () => {
    t = await startTestApp({ engine: 'sqlite', setup: false });
    const res = await t.inject({ method: 'POST', url: '/api/v1/auth/setup', ...json(owner) });
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const status = async (headers: Record<string, string>) =>
      AuthStatus.parse(
        (
          await t.inject({ url: '/api/v1/auth/status', headers: { authorization: '', ...headers } })
        ).json(),
      ).signedIn;
    expect(await status({ cookie })).toBe(true);
    expect(await status({})).toBe(false);
    expect(await status({ cookie: 'pw_session=not-a-session' })).toBe(false);
    const { csrfToken } = Session.parse(res.json());
    const out = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: '', cookie, 'x-csrf-token': csrfToken },
    });
    expect(out.statusCode).toBe(204);
    expect(await status({ cookie })).toBe(false);
  });

  it('applies the password rules of SPEC §5', async () => {
    t = await startTestApp({ engine: 'sqlite', setup: false });
    for (const [password, message] of [
      ['short', 'Use at least 10 characters'],
      ['password123', 'This password is too common; choose another'],
    ]) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/setup',
        ...json({ ...owner, password }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ path: 'password', message })]);
    }
  });
});
