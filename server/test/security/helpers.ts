import { Problem, type ProblemType } from '@pagewatch/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { randomToken, sha256 } from '../../src/lib/crypto.js';
import type { TestApp } from '../support/app.js';

/** Headers of a request with no credentials at all (the harness adds the owner's key otherwise). */
export const anonymous = { authorization: '' } as const;

/** A JSON request body, as the SPA and scripts send it. */
export const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** The same, with extra headers (credentials) merged in. */
export const jsonAs = (headers: Record<string, string>, body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** Asserts an RFC 9457 answer with the SPEC §8 status and type; returns it parsed. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  type: ProblemType,
): Problem {
  expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = Problem.parse(res.json());
  expect(problem).toMatchObject({ status, type });
  return problem;
}

export interface BrowserSession {
  /** The raw `pw_session` value. */
  token: string;
  csrfToken: string;
  /** Cookie only: what a browser sends on a GET or a cross-site form post. */
  cookie: { cookie: string };
  /** Cookie plus the CSRF header: what the SPA sends on a state-changing request. */
  headers: { cookie: string; 'x-csrf-token': string };
}

const sessionFrom = (token: string, csrfToken: string): BrowserSession => ({
  token,
  csrfToken,
  cookie: { cookie: `pw_session=${token}` },
  headers: { cookie: `pw_session=${token}`, 'x-csrf-token': csrfToken },
});

/** The `pw_session` value a response sets, or null. */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const c = res.cookies.find((x) => x.name === 'pw_session');
  return c && c.value !== '' ? c.value : null;
}

/** Signs in through the real endpoint (password only; fails if two-factor is asked for). */
export async function login(
  t: TestApp,
  email: string,
  password: string,
  remoteAddress?: string,
): Promise<BrowserSession> {
  const res = await t.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    ...jsonAs(anonymous, { email, password }),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ status: string; session: { csrfToken: string } }>();
  expect(body.status).toBe('signed_in');
  const token = sessionCookieOf(res);
  expect(token).toBeTruthy();
  return sessionFrom(token!, body.session.csrfToken);
}

/**
 * A session row written straight into the database, for a token of our choosing: cheap (no
 * argon2) and lets a test place its timestamps anywhere, e.g. in the past.
 */
export async function insertSession(
  t: TestApp,
  userId: number,
  times: { createdAt?: number; lastSeenAt?: number; expiresAt?: number } = {},
): Promise<string> {
  const now = Date.now();
  const token = randomToken();
  await t.database.db
    .insertInto('sessions')
    .values({
      id_hash: sha256(token),
      user_id: userId,
      created_at: times.createdAt ?? now,
      last_seen_at: times.lastSeenAt ?? now,
      expires_at: times.expiresAt ?? now + 30 * 86_400_000,
      ip: '127.0.0.1',
      user_agent: 'vitest',
    })
    .execute();
  return token;
}

/** A live session for `userId` with its CSRF token, as the SPA holds it after /auth/me. */
export async function sessionFor(t: TestApp, userId: number): Promise<BrowserSession> {
  const token = await insertSession(t, userId);
  const me = await t.inject({ url: '/api/v1/auth/me', headers: { cookie: `pw_session=${token}` } });
  expect(me.statusCode, me.body).toBe(200);
  return sessionFrom(token, me.json<{ csrfToken: string }>().csrfToken);
}

/** A six-digit string that is none of `avoid` (e.g. the codes valid right now). */
export function otherCode(...avoid: string[]): string {
  for (let n = 123_456; ; n = (n + 111_111) % 1_000_000) {
    const c = String(n).padStart(6, '0');
    if (!avoid.includes(c)) return c;
  }
}
