import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, expectProblem, jsonAs, login } from '../security/helpers.js';
import { OWNER, startTestApp, type Identity, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';

const SECRET = 'test-instance-secret-0123456789abcdef';

/** `npx pagewatch reset-password` run where the server runs, against the server's database. */
describe.each(engines)('npx pagewatch reset-password on %s', (engine) => {
  let t: TestApp;
  let target: TestTarget | null = null;
  let dir: string;
  let env: Record<string, string>;
  let owner: Identity;

  beforeAll(async () => {
    // The CLI finds the database as the server does: data/pagewatch.db, or the PostgreSQL URL.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cli-reset-'));
    const noOwner = { userId: 0, email: '', password: '', headers: { authorization: '' } };
    if (engine === 'sqlite') {
      const shared = {
        target: { kind: 'sqlite', file: path.join(dir, 'pagewatch.db') },
        owner: noOwner,
      };
      t = await startTestApp({ engine, sharing: shared as unknown as TestApp });
      env = { PAGEWATCH_DATA_DIR: dir, PAGEWATCH_SECRET: SECRET };
    } else {
      target = await testTarget('postgres');
      t = await startTestApp({
        engine,
        sharing: { target: target.target, owner: noOwner } as unknown as TestApp,
      });
      if (target.target.kind !== 'postgres') throw new Error('expected PostgreSQL');
      env = {
        PAGEWATCH_DATABASE_URL: target.target.url,
        PAGEWATCH_DATABASE_SCHEMA: target.target.schema!,
        PAGEWATCH_SECRET: SECRET,
        PAGEWATCH_DATA_DIR: dir,
      };
    }
    owner = await t.identity('owner', OWNER.email);
  });
  afterAll(async () => {
    await t?.stop();
    await target?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const sessionsOf = async (userId: number) =>
    (
      await t.database.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', userId)
        .execute()
    ).length;

  it('prints a one-hour link at the public URL that sets the password once', async () => {
    const run = await runCli(['reset-password', OWNER.email.toUpperCase()], {
      ...env,
      PAGEWATCH_PUBLIC_URL: 'https://pw.example.test',
    });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const link = /https:\/\/pw\.example\.test\/reset-password#([A-Za-z0-9_-]+)/.exec(run.out);
    expect(link, run.out).not.toBeNull();
    expect(run.out).toContain(`Reset link for ${OWNER.email}, valid for one hour and once`);
    const reset = (password: string) =>
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        ...jsonAs(anonymous, { token: link![1], password }),
      });
    expect((await reset('a fresh owner passphrase')).statusCode).toBe(204);
    await login(t, OWNER.email, 'a fresh owner passphrase');
    const again = expectProblem(await reset('another owner passphrase'), 400, 'validation_failed');
    expect(again.errors?.[0]?.code).toBe('used');
  });

  it('without a public URL prints the path, or the whole link with --url', async () => {
    const bare = await runCli(['reset-password', OWNER.email], env);
    expect(bare.code).toBe(0);
    expect(bare.out).toMatch(/^\/reset-password#[A-Za-z0-9_-]+$/m);
    expect(bare.out).toContain('set PAGEWATCH_PUBLIC_URL, or pass --url');
    const withUrl = await runCli(
      ['--url', 'http://10.0.0.5:3000', 'reset-password', OWNER.email],
      env,
    );
    expect(withUrl.out).toMatch(/^http:\/\/10\.0\.0\.5:3000\/reset-password#/m);
  });

  it('--password-stdin sets the password and ends every session of the account', async () => {
    const person = await t.identity('admin');
    await login(t, person.email, person.password);
    expect(await sessionsOf(person.userId)).toBe(1);
    const run = await runCli(
      ['reset-password', person.email, '--password-stdin'],
      env,
      process.cwd(),
      'set on the server 42\n',
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `Password of ${person.email} set; every session of that account was signed out.\n`,
    );
    expect(await sessionsOf(person.userId)).toBe(0);
    await login(t, person.email, 'set on the server 42');
    const audit = await t.inject({ url: '/api/v1/audit?limit=5', headers: owner.headers });
    const items = audit.json<{ items: { action: string; actor: { type: string } }[] }>().items;
    expect(items.find((e) => e.action === 'auth.password_reset')?.actor.type).toBe('system');
  });

  it('refuses a weak password or an unknown account and changes nothing', async () => {
    const weak = await runCli(
      ['reset-password', OWNER.email, '--password-stdin'],
      env,
      process.cwd(),
      'short\n',
    );
    expect(weak.code).toBe(1);
    expect(weak.err).toBe('pagewatch: Nothing was changed: Use at least 10 characters.\n');
    const unknown = await runCli(['reset-password', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(
      'pagewatch: Nothing was changed: No account has the email nobody@example.com.\n',
    );
    const missing = await runCli(['reset-password'], env);
    expect(missing.code).toBe(2);
  });
});
