import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { randomBase62, sha256 } from '../../src/lib/crypto.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines, postgresUrl } from '../support/engines.js';
import { insertSession, jsonAs, login, sessionFor } from '../security/helpers.js';

/** How long an open stream may outlive the credential that opened it. */
const DEADLINE_MS = 1000;

interface Stream {
  ended: Promise<void>;
  isOpen(): boolean;
  text(): string;
}

/** Opens the event stream over real HTTP; resolves once its first bytes (`retry:`) arrived. */
function openStream(url: string, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/v1/events`, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let text = '';
      let open = true;
      const ended = new Promise<void>((done) =>
        res.once('end', () => {
          open = false;
          done();
        }),
      );
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!text) resolve({ ended, isOpen: () => open, text: () => text });
        text += chunk;
      });
    });
    req.once('error', reject);
    streams.push(req);
  });
}
const streams: http.ClientRequest[] = [];

/** Fails unless the stream ends before the deadline (measured from now). */
async function endsWithin(stream: Stream, ms = DEADLINE_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    stream.ended.then(() => 'ended'),
    new Promise((r) => (timer = setTimeout(() => r(`still open after ${ms} ms`), ms))),
  ]);
  clearTimeout(timer);
  expect(outcome).toBe('ended');
}

const bearer = (headers: { authorization: string }) => ({ authorization: headers.authorization });

describe.each(engines)('event streams end with their credentials on %s', (engine) => {
  let t: TestApp;
  let published = 0;
  // The heartbeat (15 s by default) re-checks too, far too late for these deadlines.
  beforeAll(async () => {
    t = await startTestApp({ engine, listen: true });
  });
  afterAll(async () => {
    streams.forEach((s) => s.destroy());
    await t.stop();
  });

  /** A stream that must still be open: it still receives what is published. */
  async function stillStreams(stream: Stream, label: string): Promise<void> {
    // The revocation's re-checks are a few queries; give any of them time to finish first.
    await new Promise((r) => setTimeout(r, 200));
    const monitorId = 900_000 + ++published;
    t.hub.publish({ kind: 'monitor', change: 'updated', monitorId });
    await expect
      .poll(() => stream.text(), { timeout: DEADLINE_MS })
      .toContain(`"monitorId":${monitorId}`);
    expect(stream.isOpen(), label).toBe(true);
  }

  it('signing out ends the stream of that session', async () => {
    const s = await login(t, t.owner.email, t.owner.password);
    const stream = await openStream(t.url, s.cookie);
    const out = await t.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers });
    expect(out.statusCode).toBe(204);
    await endsWithin(stream);
  });

  it('signing out everywhere from another session ends this session’s stream', async () => {
    const here = await sessionFor(t, t.owner.userId);
    const there = await sessionFor(t, t.owner.userId);
    const stream = await openStream(t.url, here.cookie);
    const keyStream = await openStream(t.url, bearer(t.owner.headers));
    const out = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/logout-all',
      headers: there.headers,
    });
    expect(out.statusCode).toBe(204);
    await endsWithin(stream);
    // Signing out is about sessions: the person's API keys keep streaming.
    await stillStreams(keyStream, 'the owner’s API key');
  });

  it('a password change from another session ends this session’s stream', async () => {
    const p = await t.identity('editor');
    const here = await sessionFor(t, p.userId);
    const there = await sessionFor(t, p.userId);
    const stream = await openStream(t.url, here.cookie);
    const change = await t.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      ...jsonAs(there.headers, { current: p.password, next: 'a brand new passphrase 42' }),
    });
    expect(change.statusCode, change.body).toBe(204);
    await endsWithin(stream);
  });

  it('revoking an API key ends its stream, not the streams of the person’s other keys', async () => {
    const made = await t.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      ...jsonAs(t.owner.headers, { name: 'dashboard', role: 'viewer' }),
    });
    const { apiKey, secret } = made.json<{ apiKey: { id: number }; secret: string }>();
    const stream = await openStream(t.url, { authorization: `Bearer ${secret}` });
    const other = await openStream(t.url, bearer(t.owner.headers));
    const out = await t.inject({ method: 'DELETE', url: `/api/v1/api-keys/${apiKey.id}` });
    expect(out.statusCode).toBe(204);
    await endsWithin(stream);
    await stillStreams(other, 'another key of the same person');
  });

  it('a key lowered by its creator’s new role ends its stream; a key within the new role streams on', async () => {
    const p = await t.identity('admin');
    const viewerKey = await t.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      ...jsonAs(p.headers, { name: 'wallboard', role: 'viewer' }),
    });
    const lowered = await openStream(t.url, p.headers);
    const unchanged = await openStream(t.url, {
      authorization: `Bearer ${viewerKey.json<{ secret: string }>().secret}`,
    });
    const demote = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${p.userId}`,
      payload: { role: 'editor' },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    await endsWithin(lowered);
    await stillStreams(unchanged, 'a viewer key of a person lowered to editor');
  });

  it('disabling a person ends the streams of their sessions and their keys', async () => {
    const p = await t.identity('editor');
    const s = await sessionFor(t, p.userId);
    const bySession = await openStream(t.url, s.cookie);
    const byKey = await openStream(t.url, p.headers);
    const disable = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${p.userId}`,
      payload: { disabled: true },
    });
    expect(disable.statusCode, disable.body).toBe(200);
    await Promise.all([endsWithin(bySession), endsWithin(byKey)]);
  });

  it('lowering a person’s role ends their session’s stream', async () => {
    const p = await t.identity('editor');
    const s = await sessionFor(t, p.userId);
    const stream = await openStream(t.url, s.cookie);
    const demote = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${p.userId}`,
      payload: { role: 'viewer' },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    await endsWithin(stream);
  });

  it('a stream ends when its session reaches its expiry time', async () => {
    const expiresAt = Date.now() + 1500;
    const token = await insertSession(t, t.owner.userId, { expiresAt });
    const stream = await openStream(t.url, { cookie: `pw_session=${token}` });
    expect(stream.isOpen()).toBe(true);
    await endsWithin(stream, expiresAt - Date.now() + DEADLINE_MS);
  });

  it('a stream ends when its API key reaches its expiry time', async () => {
    const expiresAt = Date.now() + 1500;
    const secret = `pw_${randomBase62(40)}`;
    await repositories(t.database).apiKeys.insert(
      {
        name: 'short-lived',
        prefix: secret.slice(0, 10),
        keyHash: sha256(secret),
        role: 'viewer',
        userId: t.owner.userId,
        expiresAt,
      },
      Date.now(),
    );
    const stream = await openStream(t.url, { authorization: `Bearer ${secret}` });
    expect(stream.isOpen()).toBe(true);
    await endsWithin(stream, expiresAt - Date.now() + DEADLINE_MS);
  });
});

describe.runIf(postgresUrl)('processes sharing one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ engine: 'postgres', listen: true });
    b = await startTestApp({ engine: 'postgres', listen: true, sharing: a });
  });
  afterAll(async () => {
    streams.forEach((s) => s.destroy());
    await b?.close();
    await a?.stop();
  });

  it('a sign-out made in one process ends the session’s stream in another at once', async () => {
    const s = await sessionFor(a, a.owner.userId);
    const stream = await openStream(b.url, s.cookie);
    // The stream's own request left the session in b's cache of resolved sessions.
    expect((await b.inject({ url: '/api/v1/auth/me', headers: s.cookie })).statusCode).toBe(200);
    const out = await a.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: s.headers });
    expect(out.statusCode).toBe(204);
    await endsWithin(stream);
    // And b forgot it at once rather than trusting its cache for up to 10 s.
    expect((await b.inject({ url: '/api/v1/auth/me', headers: s.cookie })).statusCode).toBe(401);
  });
});
