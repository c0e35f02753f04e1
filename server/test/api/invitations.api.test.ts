import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from '../fixtures/smtp-peer.js';
import { anonymous, expectProblem, jsonAs, login, sessionCookieOf } from '../security/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { tokenIn, useSystemMail } from '../support/mail.js';

interface Sent {
  invitation: { id: number; email: string; role: string; expired: boolean };
  link: string;
  mailed: boolean;
  mailError: string | null;
}

describe.each(engines)('invitations, profiles and deleting people on %s', (engine) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let seq = 0;
  const address = () => `person-${++seq}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    t = await startTestApp({ engine, config: { publicUrl: 'https://pw.example.test/' } });
    await useSystemMail(t, smtp);
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.mails.length = 0;
  });

  const invite = (headers: Record<string, string>, email: string, role: string) =>
    t.inject({ method: 'POST', url: '/api/v1/invitations', ...jsonAs(headers, { email, role }) });
  const accept = (token: string, name = 'New Person', password = 'my own passphrase 9') =>
    t.inject({
      method: 'POST',
      url: '/api/v1/auth/invitation/accept',
      ...jsonAs(anonymous, { token, name, password }),
    });
  const tokenCode = (res: Awaited<ReturnType<typeof accept>>) =>
    expectProblem(res, 400, 'validation_failed').errors?.find((e) => e.path === 'token')?.code;

  it('an admin invites; the invited person picks their name and password and is signed in', async () => {
    const admin = await t.identity('admin');
    const email = address();
    const res = await invite(admin.headers, email, 'editor');
    expect(res.statusCode, res.body).toBe(201);
    const sent = res.json<Sent>();
    expect(sent).toMatchObject({
      mailed: true,
      mailError: null,
      invitation: { email, role: 'editor', expired: false },
    });
    expect(sent.link).toMatch(/^https:\/\/pw\.example\.test\/invitation#/);
    expect(smtp.mails.map((m) => m.to)).toEqual([[email]]);
    const token = tokenIn(smtp.mails[0]!.raw, '/invitation');
    expect(sent.link.endsWith(token)).toBe(true);

    const list = await t.inject({ url: '/api/v1/invitations', headers: admin.headers });
    expect(list.json<{ items: { email: string }[] }>().items.map((i) => i.email)).toContain(email);

    const check = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/invitation/check',
      ...jsonAs(anonymous, { token }),
    });
    expect(check.json()).toMatchObject({ email, role: 'editor' });
    expectProblem(await accept(token, 'Nina', 'short'), 400, 'validation_failed');

    const joined = await accept(token, 'Nina Newcomer');
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toMatchObject({ user: { email, name: 'Nina Newcomer', role: 'editor' } });
    expect(sessionCookieOf(joined)).toBeTruthy();
    await login(t, email, 'my own passphrase 9');
    expect(tokenCode(await accept(token))).toBe('used');
    const after = await t.inject({ url: '/api/v1/invitations', headers: admin.headers });
    expect(after.json<{ items: { email: string }[] }>().items.map((i) => i.email)).not.toContain(
      email,
    );
  });

  it('resending replaces the link; revoking, expiry and tampering refuse it with the reason', async () => {
    const email = address();
    const first = (await invite(t.owner.headers, email, 'viewer')).json<Sent>();
    const firstToken = first.link.split('#')[1]!;
    const resent = await t.inject({
      method: 'POST',
      url: `/api/v1/invitations/${first.invitation.id}/resend`,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const second = resent.json<Sent>();
    expect(smtp.mails).toHaveLength(2);
    expect(tokenCode(await accept(firstToken))).toBe('invalid');
    const secondToken = second.link.split('#')[1]!;
    expect(tokenCode(await accept(`${secondToken}x`))).toBe('invalid');

    await t.database.db
      .updateTable('account_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', second.invitation.id)
      .execute();
    expect(tokenCode(await accept(secondToken))).toBe('expired');
    const listed = await t.inject({ url: '/api/v1/invitations' });
    expect(
      listed
        .json<{ items: { id: number; expired: boolean }[] }>()
        .items.find((i) => i.id === second.invitation.id),
    ).toMatchObject({ expired: true });

    const third = (
      await t.inject({ method: 'POST', url: `/api/v1/invitations/${second.invitation.id}/resend` })
    ).json<Sent>();
    const revoked = await t.inject({
      method: 'DELETE',
      url: `/api/v1/invitations/${third.invitation.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    expect(tokenCode(await accept(third.link.split('#')[1]!))).toBe('invalid');
    expectProblem(
      await t.inject({ method: 'DELETE', url: `/api/v1/invitations/${third.invitation.id}` }),
      404,
      'not_found',
    );
  });

  it('refuses what the inviter may not grant, an address with an account, and editors', async () => {
    const admin = await t.identity('admin');
    const editor = await t.identity('editor');
    expectProblem(await invite(admin.headers, address(), 'owner'), 403, 'forbidden');
    expectProblem(await invite(editor.headers, address(), 'viewer'), 403, 'forbidden');
    const taken = await invite(admin.headers, editor.email, 'viewer');
    expectProblem(taken, 409, 'conflict');
    expectProblem(
      await invite(admin.headers, 'not an address', 'viewer'),
      400,
      'validation_failed',
    );
    expect(smtp.mails).toEqual([]);
  });

  it('without a system mail channel the invitation is made and its link answered to share by hand', async () => {
    await t.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      payload: { mail: { systemChannelId: null } },
    });
    try {
      const sent = (await invite(t.owner.headers, address(), 'viewer')).json<Sent>();
      expect(sent.mailed).toBe(false);
      expect(sent.mailError).toMatch(/system mail/i);
      expect((await accept(sent.link.split('#')[1]!)).statusCode).toBe(201);
    } finally {
      await useSystemMail(t, smtp);
    }
  });

  it('people rename themselves and change their email through a link sent to the new address', async () => {
    const person = await t.identity('viewer');
    const s = await login(t, person.email, person.password);
    const renamed = await t.inject({
      method: 'PATCH',
      url: '/api/v1/auth/me',
      ...jsonAs(s.headers, { name: 'Vera Viewer' }),
    });
    expect(renamed.json()).toMatchObject({ name: 'Vera Viewer', email: person.email });
    expectProblem(
      await t.inject({
        method: 'PATCH',
        url: '/api/v1/auth/me',
        ...jsonAs(person.headers, { name: 'Key' }),
      }),
      403,
      'forbidden',
    );

    const newEmail = address();
    const ask = (body: object) =>
      t.inject({ method: 'POST', url: '/api/v1/auth/email-change', ...jsonAs(s.headers, body) });
    const wrong = await ask({ email: newEmail, password: 'not my password' });
    expect(expectProblem(wrong, 400, 'validation_failed').errors?.[0]?.path).toBe('password');
    expectProblem(
      await ask({ email: t.owner.email, password: person.password }),
      400,
      'validation_failed',
    );
    const asked = await ask({ email: newEmail, password: person.password });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(smtp.mails.map((m) => m.to)).toEqual([[newEmail]]);
    const token = tokenIn(smtp.mails[0]!.raw, '/confirm-email');
    // Nothing changes until the new address confirms.
    await login(t, person.email, person.password);
    const confirm = () =>
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/email-change/confirm',
        ...jsonAs(anonymous, { token }),
      });
    expect((await confirm()).json()).toEqual({ email: newEmail });
    await login(t, newEmail, person.password);
    const me = await t.inject({ url: '/api/v1/auth/me', headers: s.headers });
    expect(me.json()).toMatchObject({ user: { email: newEmail } });
    expect(expectProblem(await confirm(), 400, 'validation_failed').errors?.[0]?.code).toBe('used');
  });

  it('admins delete people; their audit lines stay under their name; the sole owner stays', async () => {
    const admin = await t.identity('admin');
    const doomed = await t.identity('editor');
    await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${doomed.userId}`,
      payload: { name: 'Dora Doomed' },
    });
    const session = await login(t, doomed.email, doomed.password);
    const made = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...jsonAs(session.headers, { title: 'Left behind', message: 'Declared' }),
    });
    expect(made.statusCode).toBe(201);
    const del = (who: Record<string, string>, id: number) =>
      t.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: who });

    expectProblem(await del(doomed.headers, admin.userId), 403, 'forbidden');
    expectProblem(await del(admin.headers, t.owner.userId), 403, 'forbidden');
    expectProblem(await del(t.owner.headers, t.owner.userId), 409, 'conflict');
    expect((await del(admin.headers, doomed.userId)).statusCode).toBe(204);
    expectProblem(await del(admin.headers, doomed.userId), 404, 'not_found');
    // Their key ended with them.
    expectProblem(
      await t.inject({ url: '/api/v1/monitors', headers: doomed.headers }),
      401,
      'unauthenticated',
    );

    const audit = await t.inject({ url: '/api/v1/audit?limit=50' });
    const items = audit.json<{
      items: { action: string; actor: { id: number | null; label: string }; summary: string }[];
    }>().items;
    const theirs = items.filter(
      (e) => e.actor.id === doomed.userId && e.summary.includes('Left behind'),
    );
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.actor.label).toBe(`Dora Doomed (deleted) <${doomed.email}>`);
    expect(items.find((e) => e.action === 'user.deleted')?.summary).toContain('Dora Doomed');
    const users = await t.inject({ url: '/api/v1/users' });
    expect(users.json<{ items: { id: number }[] }>().items.map((u) => u.id)).not.toContain(
      doomed.userId,
    );

    // With a second owner, an owner may delete the other; never the last one.
    const second = await t.identity('owner');
    expect((await del(t.owner.headers, second.userId)).statusCode).toBe(204);
  });

  it('the system mail channel must be an email channel', async () => {
    const hook = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: { kind: 'webhook', name: 'Hook', config: { url: 'http://127.0.0.1:9/' } },
    });
    const res = await t.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      payload: { mail: { systemChannelId: hook.json<{ id: number }>().id } },
    });
    expect(expectProblem(res, 400, 'validation_failed').errors?.[0]?.path).toBe(
      'mail.systemChannelId',
    );
  });
});
