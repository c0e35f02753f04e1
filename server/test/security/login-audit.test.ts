import type { AuditEvent } from '@pagewatch/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { anonymous, expectProblem, jsonAs } from './helpers.js';

/** A password typed into the email box: what nobody may read back. */
const TYPED = 'hunter2-my-password';

describe.each(engines)('the audit log of a failed sign-in on %s', (engine) => {
  let t: TestApp;
  /** Every line the app logs at info and above. */
  const log: string[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void log.push(line) });
    t = await startTestApp({ engine, logger });
  });
  afterAll(async () => t?.stop());

  const signIn = (email: string, password: string, remoteAddress = '127.0.0.1') =>
    t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress,
      ...jsonAs(anonymous, { email, password }),
    });

  async function failedSignIns(): Promise<{ items: AuditEvent[]; body: string }> {
    const res = await t.inject({ url: '/api/v1/audit?limit=200&action=auth.login_failed' });
    expect(res.statusCode, res.body).toBe(200);
    return { items: res.json<{ items: AuditEvent[] }>().items, body: res.body };
  }

  it('keeps no text typed for an unknown account: not in the API, its table, the limiter or the log', async () => {
    expectProblem(await signIn(TYPED, 'whatever came next'), 401, 'unauthenticated');
    expectProblem(await signIn(TYPED, 'another try'), 401, 'unauthenticated');

    const { items, body } = await failedSignIns();
    expect(items).toHaveLength(2);
    for (const e of items) {
      expect(e).toMatchObject({ actor: { type: 'anonymous' }, target: null });
      expect(e.summary).toMatch(/unknown account/);
    }
    // The same typed text is recognisable as such, without being readable.
    expect(items[0]!.summary).toBe(items[1]!.summary);
    expect(body).not.toContain('hunter2');

    const rows = await t.database.db.selectFrom('audit_events').selectAll().execute();
    expect(rows.some((r) => r.action === 'auth.login_failed')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('hunter2');
    const failures = await t.database.db.selectFrom('login_failures').selectAll().execute();
    expect(failures.filter((f) => f.subject.startsWith('email:'))).toHaveLength(2);
    expect(JSON.stringify(failures)).not.toContain('hunter2');

    // The log was written (the sign-in requests are in it), without the typed text.
    expect(log.join('')).toContain('/api/v1/auth/login');
    expect(log.join('')).not.toContain('hunter2');
  });

  it('names the account of a failed sign-in when it is a known one', async () => {
    expectProblem(
      await signIn(t.owner.email.toUpperCase(), 'not the password'),
      401,
      'unauthenticated',
    );
    const known = (await failedSignIns()).items.find((e) => e.target !== null);
    expect(known).toMatchObject({
      target: { type: 'user', id: String(t.owner.userId) },
      summary: `Failed sign-in for ${t.owner.email}`,
    });
  });

  it('counts an unknown account’s failures towards its limit all the same', async () => {
    const typed = 'correct-horse-in-the-wrong-box';
    // Each from its own address, so only the per-account count can refuse the eleventh.
    for (let i = 0; i < 10; i++)
      expectProblem(await signIn(typed, `guess ${i}`, `192.0.2.${i + 1}`), 401, 'unauthenticated');
    const res = await signIn(typed, 'guess 11', '192.0.2.77');
    expectProblem(res, 429, 'rate_limited');
  });
});
