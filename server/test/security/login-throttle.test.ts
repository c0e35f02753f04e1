import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import {
  anonymous,
  expectProblem,
  jsonAs,
  login,
  otherCode,
  sessionCookieOf,
  type BrowserSession,
} from './helpers.js';

/** SPEC §9: 10 failed attempts per 15 minutes, per account and per IP. */
const LIMIT = 10;
let ipSeq = 0;
/** A fresh client address, so one test's failures never count against another's IP. */
const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
const codeNow = (secret: string) => totpOf(secret).generate();
/** Last step's code: still inside the ±1 window, and leaves the current step unspent. */
const codeBefore = (secret: string) => totpOf(secret).generate({ timestamp: Date.now() - 30_000 });
/** A code outside the ±1 step the server accepts around now. */
const wrongCode = (secret: string) => {
  const totp = totpOf(secret);
  const now = Date.now();
  return otherCode(
    ...[-60_000, -30_000, 0, 30_000, 60_000].map((d) => totp.generate({ timestamp: now + d })),
  );
};

describe.each(engines)('sign-in throttling and two-factor on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  const attempt = (email: string, password: string, remoteAddress = freshIp()) =>
    t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email, password }),
      remoteAddress,
    });

  function expectRateLimited(res: Awaited<ReturnType<typeof attempt>>) {
    expectProblem(res, 429, 'rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  }

  it('ten wrong passwords for one account: the 11th attempt, even right and from elsewhere, gets 429', async () => {
    const person = await t.identity('viewer');
    for (let i = 0; i < LIMIT; i++)
      expectProblem(await attempt(person.email, `wrong password ${i}`), 401, 'unauthenticated');
    expectRateLimited(await attempt(person.email, person.password));
    // The email is matched as the login form normalises it.
    expectRateLimited(await attempt(` ${person.email.toUpperCase()} `, person.password));
    // Other accounts are not affected.
    const other = await t.identity('viewer');
    expect((await attempt(other.email, other.password)).statusCode).toBe(200);
  });

  it('ten failures from one IP across different emails: that IP gets 429, others do not', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++)
      expectProblem(
        await attempt(`nobody-${i}-${ip}@example.com`, 'whatever it is', ip),
        401,
        'unauthenticated',
      );
    const person = await t.identity('viewer');
    expectRateLimited(await attempt(person.email, person.password, ip));
    expect((await attempt(person.email, person.password, freshIp())).statusCode).toBe(200);
  });

  it('an unknown email gets the very same answer as a wrong password', async () => {
    const person = await t.identity('viewer');
    const wrong = await attempt(person.email, 'not the password at all');
    const unknown = await attempt('no-such-person@example.com', 'not the password at all');
    const a = expectProblem(wrong, 401, 'unauthenticated');
    const b = expectProblem(unknown, 401, 'unauthenticated');
    expect({ ...a, instance: null }).toEqual({ ...b, instance: null });
    expect(wrong.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(sessionCookieOf(wrong)).toBeNull();
    expect(sessionCookieOf(unknown)).toBeNull();
  });

  it('a disabled person cannot sign in, and is told the same as for a wrong password', async () => {
    const person = await t.identity('editor');
    const disable = await t.inject({
      method: 'PATCH',
      url: `/api/v1/users/${person.userId}`,
      payload: { disabled: true },
    });
    expect(disable.statusCode, disable.body).toBe(200);
    const refused = expectProblem(
      await attempt(person.email, person.password),
      401,
      'unauthenticated',
    );
    const wrong = expectProblem(await attempt(person.email, 'a wrong one'), 401, 'unauthenticated');
    expect(refused.detail).toBe(wrong.detail);
  });

  describe('two-factor step', () => {
    interface Enrolled extends Identity {
      secret: string;
      recoveryCodes: string[];
    }

    async function enrolled(): Promise<Enrolled> {
      const person = await t.identity('viewer');
      const s: BrowserSession = await login(t, person.email, person.password, freshIp());
      const enrol = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/totp/enrol',
        headers: s.headers,
      });
      expect(enrol.statusCode, enrol.body).toBe(200);
      const { secret } = enrol.json<{ secret: string }>();
      const confirm = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/totp/confirm',
        ...jsonAs(s.headers, { code: codeBefore(secret) }),
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>();
      expect(recoveryCodes.length).toBeGreaterThan(0);
      return { ...person, secret, recoveryCodes };
    }

    async function challenge(p: Identity): Promise<string> {
      const res = await attempt(p.email, p.password);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ status: string; challenge: string }>();
      expect(body.status).toBe('totp_required');
      // The password alone earns no session.
      expect(sessionCookieOf(res)).toBeNull();
      return body.challenge;
    }

    const answer = (c: string, code: string) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/login/totp',
        ...jsonAs(anonymous, { challenge: c, code }),
        remoteAddress: freshIp(),
      });

    it('a wrong code is refused; the right one signs in', async () => {
      const p = await enrolled();
      const c = await challenge(p);
      const wrong = await answer(c, wrongCode(p.secret));
      expectProblem(wrong, 401, 'unauthenticated');
      expect(sessionCookieOf(wrong)).toBeNull();
      const right = await answer(c, codeNow(p.secret));
      expect(right.statusCode, right.body).toBe(200);
      const cookie = sessionCookieOf(right);
      expect(cookie).toBeTruthy();
      const me = await t.inject({
        url: '/api/v1/auth/me',
        headers: { cookie: `pw_session=${cookie}` },
      });
      expect(me.json()).toMatchObject({ user: { email: p.email, totpEnabled: true } });
      // The challenge was spent.
      expectProblem(await answer(c, codeNow(p.secret)), 401, 'unauthenticated');
    });

    it('a code signs in once: replaying it, even on a fresh challenge, is refused', async () => {
      const p = await enrolled();
      const code = codeNow(p.secret);
      expect((await answer(await challenge(p), code)).statusCode).toBe(200);
      expectProblem(await answer(await challenge(p), code), 401, 'unauthenticated');
      // The step the enrolment was confirmed with is spent too.
      expectProblem(await answer(await challenge(p), codeBefore(p.secret)), 401, 'unauthenticated');
    });

    it('a recovery code sent twice at the same moment signs in once', async () => {
      const p = await enrolled();
      const [code] = p.recoveryCodes;
      const [a, b] = [await challenge(p), await challenge(p)];
      const answers = await Promise.all([answer(a, code!), answer(b, code!)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    });

    it('a recovery code works once, and not twice', async () => {
      const p = await enrolled();
      const [first, second] = p.recoveryCodes;
      const once = await answer(await challenge(p), first!);
      expect(once.statusCode, once.body).toBe(200);
      expect(sessionCookieOf(once)).toBeTruthy();
      expectProblem(await answer(await challenge(p), first!), 401, 'unauthenticated');
      // Typed in capitals and without dashes it is the same code.
      const loose = second!.toUpperCase().replaceAll('-', '');
      expect((await answer(await challenge(p), loose)).statusCode).toBe(200);
      expectProblem(await answer(await challenge(p), second!), 401, 'unauthenticated');
    });

    it('a challenge allows five attempts; after five wrong codes even the right one is refused', async () => {
      const tries = async (p: Enrolled, wrong: number) => {
        const c = await challenge(p);
        for (let i = 0; i < wrong; i++)
          expectProblem(await answer(c, wrongCode(p.secret)), 401, 'unauthenticated');
        return { c, last: await answer(c, codeNow(p.secret)) };
      };
      // Four slips and the right code on the fifth try: signed in.
      const lucky = await tries(await enrolled(), 4);
      expect(lucky.last.statusCode, lucky.last.body).toBe(200);
      // Five slips: the challenge is spent, however often the right code follows.
      const p = await enrolled();
      const spent = await tries(p, 5);
      expectProblem(spent.last, 401, 'unauthenticated');
      expectProblem(await answer(spent.c, codeNow(p.secret)), 401, 'unauthenticated');
      // Starting over with the password gives a fresh challenge.
      expect((await answer(await challenge(p), codeNow(p.secret))).statusCode).toBe(200);
    });

    it('wrong codes count towards the sign-in limit, even spread over challenges fetched in advance', async () => {
      const p = await enrolled();
      // Challenges gathered before any failure: each allows five tries on its own.
      const challenges = [await challenge(p), await challenge(p), await challenge(p)];
      const spare = await challenge(p);
      for (let i = 0; i < LIMIT; i++)
        expectProblem(
          await answer(challenges[Math.floor(i / 4)]!, wrongCode(p.secret)),
          401,
          'unauthenticated',
        );
      expectRateLimited(await answer(spare, codeNow(p.secret)));
      expectRateLimited(await attempt(p.email, p.password));
    });

    it('a made-up challenge is refused', async () => {
      const p = await enrolled();
      expectProblem(await answer('made-up-challenge', codeNow(p.secret)), 401, 'unauthenticated');
    });
  });
});
