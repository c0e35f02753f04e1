import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backgroundSettled } from '../../src/services/accounts/background.js';
import { RESET_LIMITS } from '../../src/services/accounts/throttle.js';
import { startSmtpPeer, type SmtpPeer } from '../fixtures/smtp-peer.js';
import { anonymous, expectProblem, json, jsonAs, login } from '../security/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { tokenIn, useSystemMail } from '../support/mail.js';

const PUBLIC_URL = 'https://pagewatch.example.test';

describe.each(engines)('forgot password on %s', (engine) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let ip = 0;
  // Each test asks from its own client address: the per-client limit is tested on its own.
  const from = () => ({ remoteAddress: `10.0.${Math.floor(++ip / 250)}.${ip % 250}` });

  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    t = await startTestApp({ engine, config: { publicUrl: PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  const ask = (email: string, extra: object = from()) =>
    t.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/request',
      ...jsonAs(anonymous, { email }),
      ...extra,
    });
  const reset = (token: string, password: string) =>
    t.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      ...jsonAs(anonymous, { token, password }),
    });
  const tokenProblem = (res: Awaited<ReturnType<typeof reset>>) =>
    expectProblem(res, 400, 'validation_failed').errors?.find((e) => e.path === 'token')?.code;

  it('says on the sign-in screen whether a reset can be mailed, once a system channel is set', async () => {
    const before = await t.inject({ url: '/api/v1/auth/status', headers: anonymous });
    expect(before.json()).toMatchObject({ passwordResetByMail: false });
    await useSystemMail(t, smtp);
    const after = await t.inject({ url: '/api/v1/auth/status', headers: anonymous });
    expect(after.json()).toMatchObject({ passwordResetByMail: true });
  });

  it('answers an existing and an unknown address alike, and mails only the existing one', async () => {
    const person = await t.identity('editor');
    const known = await ask(person.email.toUpperCase());
    const unknown = await ask('nobody-here@example.com');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    await backgroundSettled();
    expect(smtp.mails.map((m) => m.to)).toEqual([[person.email]]);
    expect(smtp.mails[0]!.raw).toContain('Subject: Reset your Pagewatch password');
    // The link goes to the configured public address, never to the request's Host.
    expect(smtp.mails[0]!.raw.replace(/=\r?\n/g, '')).toContain(`${PUBLIC_URL}/reset-password#`);
  });

  it('sets the new password once, signs the person out everywhere, and refuses the link again', async () => {
    const person = await t.identity('viewer');
    const session = await login(t, person.email, person.password);
    expect((await t.inject({ url: '/api/v1/auth/me', headers: session.headers })).statusCode).toBe(
      200,
    );
    await ask(person.email);
    await backgroundSettled();
    const token = tokenIn(smtp.mails[0]!.raw, '/reset-password');

    const check = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/check',
      ...jsonAs(anonymous, { token }),
    });
    expect(check.json()).toEqual({ email: person.email });
    const weak = await reset(token, 'short');
    expect(expectProblem(weak, 400, 'validation_failed').errors?.[0]?.path).toBe('password');

    expect((await reset(token, 'a brand new passphrase 1')).statusCode).toBe(204);
    expect((await t.inject({ url: '/api/v1/auth/me', headers: session.headers })).statusCode).toBe(
      401,
    );
    await login(t, person.email, 'a brand new passphrase 1');
    const old = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: person.email, password: person.password }),
    });
    expect(old.statusCode).toBe(401);

    expect(tokenProblem(await reset(token, 'yet another passphrase 2'))).toBe('used');
    const audit = await t.inject({ url: '/api/v1/audit?limit=20' });
    const actions = audit.json<{ items: { action: string }[] }>().items.map((e) => e.action);
    expect(actions).toContain('auth.password_reset');
    expect(actions).toContain('auth.password_reset_requested');
  });

  it('refuses a tampered, an expired and a superseded link with the reason', async () => {
    const person = await t.identity('viewer');
    await ask(person.email);
    await backgroundSettled();
    const first = tokenIn(smtp.mails[0]!.raw, '/reset-password');
    const flipped = first.slice(0, -1) + (first.endsWith('A') ? 'B' : 'A');
    expect(tokenProblem(await reset(flipped, 'a brand new passphrase 1'))).toBe('invalid');
    expect(tokenProblem(await reset('', 'a brand new passphrase 1'))).toBeTruthy();

    // A second request replaces the first link.
    await ask(person.email);
    await backgroundSettled();
    const second = tokenIn(smtp.mails[1]!.raw, '/reset-password');
    expect(tokenProblem(await reset(first, 'a brand new passphrase 1'))).toBe('invalid');

    await t.database.db
      .updateTable('account_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('kind', '=', 'password_reset')
      .where('email', '=', person.email)
      .execute();
    expect(tokenProblem(await reset(second, 'a brand new passphrase 1'))).toBe('expired');
    await login(t, person.email, person.password);
  });

  it('keeps only hashes of the tokens', async () => {
    const person = await t.identity('viewer');
    await ask(person.email);
    await backgroundSettled();
    const token = tokenIn(smtp.mails[0]!.raw, '/reset-password');
    const rows = await t.database.db.selectFrom('account_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.token_hash).not.toContain(token);
      expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('limits requests per address (known or not, alike) and per client address', async () => {
    const person = await t.identity('viewer');
    for (const email of [person.email, 'ghost@example.com']) {
      for (let i = 0; i < RESET_LIMITS.perEmail; i++)
        expect((await ask(email)).statusCode).toBe(202);
      const refused = await ask(email);
      expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const client = { remoteAddress: '10.9.9.9' };
    for (let i = 0; i < RESET_LIMITS.perIp; i++)
      expect((await ask(`spray-${i}@example.com`, client)).statusCode).toBe(202);
    expectProblem(await ask('spray-last@example.com', client), 429, 'rate_limited');
    await backgroundSettled();
  });

  it('mails nothing for a disabled account, and validates the address field', async () => {
    const person = await t.identity('viewer');
    await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${person.userId}`,
      ...json({ disabled: true }),
    });
    expect((await ask(person.email)).statusCode).toBe(202);
    await backgroundSettled();
    expect(smtp.mails).toEqual([]);
    const empty = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/request',
      ...jsonAs(anonymous, { email: '' }),
      ...from(),
    });
    expectProblem(empty, 400, 'validation_failed');
  });
});

describe.each(engines)('forgot password without a public URL on %s', (engine) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    t = await startTestApp({ engine });
    await useSystemMail(t, smtp);
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  it('mails no link built from the request, and says so on the sign-in screen', async () => {
    const status = await t.inject({ url: '/api/v1/auth/status', headers: anonymous });
    expect(status.json()).toMatchObject({ passwordResetByMail: false });
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset/request',
      ...jsonAs({ ...anonymous, host: 'evil.example' }, { email: t.owner.email }),
    });
    expect(res.statusCode).toBe(202);
    await backgroundSettled();
    expect(smtp.mails).toEqual([]);
  });
});
