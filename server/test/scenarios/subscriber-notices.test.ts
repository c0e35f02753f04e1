import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { SMTP_PASSWORD, SMTP_USER, startSmtpPeer, type SmtpPeer } from '../fixtures/smtp-peer.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { until } from '../support/until.js';
import { repositories } from '../../src/db/repositories/index.js';
import { downRun, monitorInput } from '../support/factories.js';

const form = (body: Record<string, string>) => ({
  payload: new URLSearchParams(body).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** A raw message's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** RFC 2047 "Q" text as UTF-8: `_` is a space, `=XX` a byte. */
function qDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c === '_' ? 0x20 : c.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A header's value, unfolded, with RFC 2047 encoded words (non-ASCII subjects) decoded. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const value = new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1];
  return value
    ?.replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qDecode(text),
    );
}

/** The text/html part of a raw message, its transfer encoding undone, as UTF-8. */
function htmlPart(raw: string): string {
  const part = raw
    .split(/^--.*$/m)
    .map((p) => p.replace(/^\r?\n/, ''))
    .find((p) => /^Content-Type: text\/html/im.test(p.split(/\r?\n\r?\n/)[0]!));
  if (!part) throw new Error('no text/html part');
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n').trimEnd();
  const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(head!)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  return Buffer.from(decoded(body), 'latin1').toString('utf8');
}

describe.each(engines)('status page subscribers hear of incidents on %s', (engine) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let hook: HttpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    hook = await startHttpReceiver();
    // The notifier alone: nothing is checked, only the outbox is sent.
    t = await startTestApp({
      engine,
      scheduler: true,
      config: { roles: ['web', 'notifier'], publicUrl: 'https://status.example.test' },
    });
  });
  afterAll(async () => {
    await t.stop();
    await smtp.close();
    await hook.close();
  });

  it('double opt-in by real mail, then public updates by mail and webhook, each with an unsubscribe link', async () => {
    const channel = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: {
        kind: 'email',
        name: 'Subscriber mail',
        config: {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'starttls',
          ignoreTlsErrors: true,
          username: SMTP_USER,
          from: 'status@example.test',
          to: ['ops@example.test'],
        },
        secrets: { password: SMTP_PASSWORD },
      },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const monitor = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Checkout' }),
    });
    const monitorId = Number(monitor.json().id);
    const slug = `notices-${engine}`;
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: {
        slug,
        title: 'Acme status',
        published: true,
        sections: [{ title: 'Shop', components: [{ monitorId }] }],
        subscriptions: { email: true, webhook: true, emailChannelId: Number(channel.json().id) },
      },
    });
    expect(page.statusCode, page.body).toBe(201);

    // Subscribing by email sends a confirmation through the page's SMTP channel.
    await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      ...form({ kind: 'email', address: 'reader@example.test' }),
    });
    const confirmation = await until('the confirmation mail', () => smtp.mails[0]);
    expect(confirmation.to).toEqual(['reader@example.test']);
    expect(confirmation).toMatchObject({ secure: true, user: SMTP_USER });
    expect(header(confirmation.raw, 'Subject')).toBe('Confirm your subscription to Acme status');
    const link =
      /https:\/\/status\.example\.test(\/status\/[a-z0-9-]+\/confirm\/[A-Za-z0-9]+)/.exec(
        decoded(confirmation.raw),
      );
    expect(link, 'confirm link in the mail').not.toBeNull();
    const confirmed = await t.app.inject({ method: 'POST', url: link![1]! });
    expect(confirmed.body).toContain('You are subscribed');

    const webhook = await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      payload: { kind: 'webhook', address: `${hook.url}/status-hook` },
    });
    expect(webhook.statusCode).toBe(202);

    // A private note reaches nobody outside; the public update after it reaches both.
    const incident = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      payload: {
        title: 'Payments failing',
        severity: 'major',
        state: 'investigating',
        message: 'Internal: db-7 is on fire',
        public: false,
        monitorIds: [monitorId],
      },
    });
    expect(incident.statusCode, incident.body).toBe(201);
    const id = Number(incident.json().id);
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${id}/updates`,
      payload: { state: 'identified', message: 'Card payments fail; we are on it.', public: true },
    });

    const [posted] = await hook.waitForRequests(1, 15_000);
    const body = posted!.json<Record<string, any>>();
    expect(body).toMatchObject({
      kind: 'incident',
      page: { title: 'Acme status', url: `https://status.example.test/status/${slug}` },
      incident: { id, title: 'Payments failing', state: 'identified' },
    });
    expect(body.incident.message).toBe('Card payments fail; we are on it.');
    expect(body.unsubscribeUrl).toMatch(new RegExp(`/status/${slug}/unsubscribe/[A-Za-z0-9]+$`));
    expect(JSON.stringify(body)).not.toContain('db-7');

    const mail = await until('the incident mail', () => smtp.mails[1]);
    expect(header(mail.raw, 'Subject')).toBe('[Acme status] Payments failing — identified');
    expect(decoded(mail.raw)).toContain('Card payments fail; we are on it.');
    expect(decoded(mail.raw)).not.toContain('db-7');
    const unsubscribe =
      /<https:\/\/status\.example\.test(\/status\/[^>]+\/unsubscribe\/[A-Za-z0-9]+)>/.exec(
        header(mail.raw, 'List-Unsubscribe') ?? '',
      );
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // One-click unsubscribe: the next update goes to the webhook only.
    const left = await t.app.inject({
      method: 'POST',
      url: unsubscribe![1]!,
      ...form({ 'List-Unsubscribe': 'One-Click' }),
    });
    expect(left.body).toContain('You are unsubscribed');
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${id}/updates`,
      payload: { state: 'resolved', message: 'Fixed.', public: true },
    });
    const [, resolved] = await hook.waitForRequests(2, 15_000);
    expect(resolved!.json<{ incident: { state: string } }>().incident.state).toBe('resolved');
    const queued = await t.database.db
      .selectFrom('deliveries')
      .select(['subscriber_id', 'event_kind', 'state'])
      .where('subscriber_id', 'is not', null)
      .execute();
    expect(queued.filter((d) => d.event_kind === 'subscriber.incident')).toHaveLength(3);
    expect(smtp.mails).toHaveLength(2);
  });

  it('names an automatic incident as the page does, until a person gives it a title', async () => {
    const monitor = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'shop-db-primary.internal' }),
    });
    const monitorId = Number(monitor.json().id);
    const slug = `auto-title-${engine}`;
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: {
        slug,
        title: 'Shop status',
        published: true,
        sections: [{ title: 'Shop', components: [{ monitorId, displayName: 'Storefront' }] }],
        subscriptions: { email: false, webhook: true, emailChannelId: null },
      },
    });
    expect(page.statusCode, page.body).toBe(201);
    const subscribed = await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      payload: { kind: 'webhook', address: `${hook.url}/auto-title` },
    });
    expect(subscribed.statusCode).toBe(202);
    const now = Date.now();
    await repositories(t.database).results.writeBatch([
      {
        monitorId,
        at: now,
        run: downRun(),
        status: 'down',
        failures: 2,
        recent: [],
        flip: { from: 'up', to: 'down' },
        firstFailure: { at: now, code: 'connect_refused', message: 'refused' },
      },
    ]);
    const listed = await t.inject({ url: `/api/v1/incidents?monitorId=${monitorId}` });
    const auto = listed.json<{ items: { id: number; title: string }[] }>().items[0]!;
    expect(auto.title).toBe('shop-db-primary.internal is down');
    const titles = async (n: number) =>
      (await hook.waitForRequests(n, 15_000))
        .filter((r) => r.path === '/auto-title')
        .map((r) => r.json<{ incident: { title: string } }>().incident.title);
    const sent = hook.requests.length;

    // The edit form sends the title back unchanged: still Pagewatch's own.
    await t.inject({
      method: 'PATCH',
      url: `/api/v1/incidents/${auto.id}`,
      payload: { title: auto.title, severity: 'minor' },
    });
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${auto.id}/updates`,
      payload: { state: 'identified', message: 'The shop is unreachable.', public: true },
    });
    expect(await titles(sent + 1)).toEqual(['Storefront is down']);
    const shown = await t.app.inject({ url: `/status/${slug}/incidents/${auto.id}` });
    expect(shown.body).toContain('Storefront is down');
    expect(shown.body).not.toContain('shop-db-primary');

    await t.inject({
      method: 'PATCH',
      url: `/api/v1/incidents/${auto.id}`,
      payload: { title: 'Checkout unavailable' },
    });
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${auto.id}/updates`,
      payload: { state: 'monitoring', message: 'A fix is live.', public: true },
    });
    expect(await titles(sent + 2)).toEqual(['Storefront is down', 'Checkout unavailable']);

    // Editors see how each subscriber's newest notice went, and why it failed.
    const pageId = Number(page.json().id);
    const lastNotice = async () =>
      (await t.inject({ url: `/api/v1/status-pages/${pageId}/subscribers` })).json<{
        items: { lastNotice: { state: string; attempts: number; error: string | null } }[];
      }>().items[0]!.lastNotice;
    await until(
      'the notice marked sent',
      async () => (await lastNotice()).state === 'sent' || undefined,
    );
    expect(await lastNotice()).toMatchObject({ state: 'sent', attempts: 1, error: null });
    hook.answer(410, { body: 'no such hook' });
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${auto.id}/updates`,
      payload: { state: 'resolved', message: 'Fixed.', public: true },
    });
    await until(
      'the notice marked failed',
      async () => (await lastNotice()).state === 'failed' || undefined,
    );
    const failed = await lastNotice();
    expect(failed.attempts).toBe(1);
    expect(failed.error).toMatch(/410/);
  });
  it('mails typed incident text as text: no markup, and no link but the ones Pagewatch built, each showing its own URL', async () => {
    const channel = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: {
        kind: 'email',
        name: 'Hostile text mail',
        config: {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'starttls',
          ignoreTlsErrors: true,
          username: SMTP_USER,
          from: 'status@example.test',
          to: ['ops@example.test'],
        },
        secrets: { password: SMTP_PASSWORD },
      },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const monitor = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Login' }),
    });
    const monitorId = Number(monitor.json().id);
    const slug = `hostile-${engine}`;
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: {
        slug,
        title: 'Bank status',
        published: true,
        sections: [{ title: 'Online banking', components: [{ monitorId }] }],
        subscriptions: { email: true, webhook: true, emailChannelId: Number(channel.json().id) },
      },
    });
    expect(page.statusCode, page.body).toBe(201);
    const reader = 'hostile-text@example.test';
    await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      ...form({ kind: 'email', address: reader }),
    });
    const toReader = () => smtp.mails.filter((m) => m.to.includes(reader));
    const confirmation = await until('the confirmation mail', () => toReader()[0]);
    const confirm =
      /https:\/\/status\.example\.test(\/status\/[a-z0-9-]+\/confirm\/[A-Za-z0-9]+)/.exec(
        decoded(confirmation.raw),
      );
    expect(confirm, 'confirm link in the mail').not.toBeNull();
    await t.app.inject({ method: 'POST', url: confirm![1]! });
    const hooked = await t.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      payload: { kind: 'webhook', address: `${hook.url}/hostile` },
    });
    expect(hooked.statusCode).toBe(202);

    const title = '<img src=x onerror=alert(1)>';
    const message = 'Sign in again at https://evil.example/login or [bank](https://evil.example)';
    const incident = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      payload: {
        title,
        severity: 'major',
        state: 'investigating',
        message,
        monitorIds: [monitorId],
      },
    });
    expect(incident.statusCode, incident.body).toBe(201);
    const id = Number(incident.json().id);

    const mail = await until('the incident mail', () => toReader()[1]);
    const { token } = await t.database.db
      .selectFrom('status_subscribers')
      .select('token')
      .where('address', '=', reader)
      .executeTakeFirstOrThrow();
    const details = `https://status.example.test/status/${slug}/incidents/${id}`;
    const unsubscribe = `https://status.example.test/status/${slug}/unsubscribe/${token}`;
    expect(htmlPart(mail.raw)).toBe(
      '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">' +
        '<p>&lt;img src=x onerror=alert(1)&gt; (major, investigating)</p>' +
        '<p>Sign in again at https://evil.example/login or [bank](https://evil.example)</p>' +
        `<p>Details: <a href="${details}">${details}</a></p>` +
        `<hr><p style="color:#666;font-size:13px">Unsubscribe: <a href="${unsubscribe}">${unsubscribe}</a></p>` +
        '</body></html>',
    );
    expect(header(mail.raw, 'Subject')).toBe(`[Bank status] ${title} — investigating`);

    // A webhook gets JSON: the text exactly as typed, for the receiver to escape for its format.
    const posted = await until('the webhook notice', () =>
      hook.requests.find((r) => r.path === '/hostile'),
    );
    const body = posted.json<{ incident: { title: string; message: string } }>();
    expect(body.incident).toMatchObject({ title, message });
  });
});
