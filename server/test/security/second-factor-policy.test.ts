import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { SoftAuthenticator, type CreationOptions } from '../support/webauthn.js';
import { anonymous, expectProblem, jsonAs, login, sessionCookieOf } from './helpers.js';

let ipSeq = 0;
const freshIp = () => `10.22.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const ORIGIN = 'https://pagewatch.test';

describe.each(engines)('"require a second factor for every account" on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine, config: { publicUrl: ORIGIN } });
  });
  afterAll(async () => {
    await t?.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      ...jsonAs({}, { security: { requireSecondFactor: false } }),
    });
    await t?.stop();
  });

  const setPolicy = (on: boolean, headers: Record<string, string> = {}) =>
    t.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      ...jsonAs(headers, { security: { requireSecondFactor: on } }),
    });

  it('only owners and admins set it; the change is audited', async () => {
    const editor = await t.identity('editor');
    expectProblem(await setPolicy(true, editor.headers), 403, 'forbidden');
    const res = await setPolicy(true);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json<{ security: { requireSecondFactor: boolean } }>().security.requireSecondFactor,
    ).toBe(true);
    const audit = (await t.inject({ url: '/api/v1/audit?limit=5' })).body;
    expect(audit).toContain('a second factor is now required for every account');
  });

  it('a person without one signs in, is told to enrol, and can use nothing else until they do; API keys are unaffected', async () => {
    expect((await setPolicy(true)).statusCode).toBe(200);
    const id = await t.identity('editor');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: id.email, password: id.password }),
      remoteAddress: freshIp(),
    });
    const body = res.json<{
      status: string;
      session: { user: { secondFactorRequired: boolean }; csrfToken: string };
    }>();
    expect(body.status).toBe('signed_in');
    expect(body.session.user.secondFactorRequired).toBe(true);
    const token = sessionCookieOf(res)!;
    const headers = { cookie: `pw_session=${token}`, 'x-csrf-token': body.session.csrfToken };

    const blocked = expectProblem(
      await t.inject({ url: '/api/v1/monitors', headers: { cookie: headers.cookie } }),
      403,
      'second_factor_required',
    );
    expect(blocked.detail).toMatch(/second factor/);
    expectProblem(
      await t.inject({ url: '/api/v1/auth/passkeys/x', method: 'DELETE', headers }),
      403,
      'second_factor_required',
    );
    // Their own session, the passkey list and the enrolment steps stay open.
    expect(
      (await t.inject({ url: '/api/v1/auth/me', headers: { cookie: headers.cookie } })).statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ url: '/api/v1/auth/passkeys', headers: { cookie: headers.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ method: 'POST', url: '/api/v1/auth/totp/enrol', headers })).statusCode,
    ).toBe(200);
    // Their API key is not a sign-in: it keeps working.
    expect((await t.inject({ url: '/api/v1/monitors', headers: id.headers })).statusCode).toBe(200);

    // A passkey enrols them: the rotated session uses the app.
    const opts = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register/options',
      ...jsonAs(headers, {}),
    });
    expect(opts.statusCode, opts.body).toBe(200);
    const reg = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register',
      ...jsonAs(headers, {
        name: 'Laptop',
        response: new SoftAuthenticator().create(opts.json<CreationOptions>(), ORIGIN),
      }),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const fresh = { cookie: `pw_session=${sessionCookieOf(reg)!}` };
    expect((await t.inject({ url: '/api/v1/monitors', headers: fresh })).statusCode).toBe(200);
    const me = (await t.inject({ url: '/api/v1/auth/me', headers: fresh })).json<{
      user: { secondFactorRequired: boolean };
    }>();
    expect(me.user.secondFactorRequired).toBe(false);
  });

  it('removing one’s last passkey sends the person back to enrol; turning the policy off lets them in', async () => {
    expect((await setPolicy(true)).statusCode).toBe(200);
    const id = await t.identity('viewer');
    await setPolicy(false);
    const s = await login(t, id.email, id.password, freshIp());
    await setPolicy(true);
    const opts = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register/options',
      ...jsonAs(s.headers, {}),
    });
    const reg = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/passkeys/register',
      ...jsonAs(s.headers, {
        name: 'Key',
        response: new SoftAuthenticator().create(opts.json<CreationOptions>(), ORIGIN),
      }),
    });
    const token = sessionCookieOf(reg)!;
    const csrf = (
      await t.inject({ url: '/api/v1/auth/me', headers: { cookie: `pw_session=${token}` } })
    ).json<{ csrfToken: string }>().csrfToken;
    const headers = { cookie: `pw_session=${token}`, 'x-csrf-token': csrf };
    const pid = reg.json<{ passkey: { id: number } }>().passkey.id;
    expect(
      (await t.inject({ url: '/api/v1/monitors', headers: { cookie: headers.cookie } })).statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ method: 'DELETE', url: `/api/v1/auth/passkeys/${pid}`, headers }))
        .statusCode,
    ).toBe(204);
    expectProblem(
      await t.inject({ url: '/api/v1/monitors', headers: { cookie: headers.cookie } }),
      403,
      'second_factor_required',
    );
    expect((await setPolicy(false)).statusCode).toBe(200);
    expect(
      (await t.inject({ url: '/api/v1/monitors', headers: { cookie: headers.cookie } })).statusCode,
    ).toBe(200);
  });
});
