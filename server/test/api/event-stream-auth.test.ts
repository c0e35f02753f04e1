import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestApp, type TestApp } from '../support/app.js';

/** Opens the event stream with a cookie over real HTTP; resolves `closed` when the server ends it. */
function openStream(url: string, cookie: string) {
  return new Promise<{ status: number; closed: Promise<void>; abort(): void }>(
    (resolve, reject) => {
      const req = http.get(`${url}/api/v1/events`, { headers: { cookie } }, (res) => {
        res.resume();
        resolve({
          status: res.statusCode ?? 0,
          closed: new Promise((done) => res.once('end', done)),
          abort: () => req.destroy(),
        });
      });
      req.once('error', reject);
    },
  );
}

describe('event streams follow the credentials that opened them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true, eventPingMs: 100 });
  });
  afterAll(async () => t.stop());

  it('ends an open stream once its session is signed out', async () => {
    const login = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: OWNER.email, password: OWNER.password },
      headers: { authorization: '' },
    });
    const cookie = String([login.headers['set-cookie']].flat()[0]).split(';')[0]!;
    const csrf = login.json().session.csrfToken as string;
    const stream = await openStream(t.url, cookie);
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.closed.then(() => (ended = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(ended).toBe(false);
    const out = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(204);
    await Promise.race([
      stream.closed,
      new Promise((_, fail) => setTimeout(() => fail(new Error('stream still open')), 3000)),
    ]);
    stream.abort();
  });
});
