import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Role } from '@pagewatch/contract';
import pino from 'pino';
import type { Config } from '../../src/config/config.js';
import { composePagewatch, type ComposeOptions, type Pagewatch } from '../../src/compose.js';
import { repositories } from '../../src/db/repositories/index.js';
import { randomBase62, sha256 } from '../../src/lib/crypto.js';
import { hashPassword } from '../../src/lib/passwords.js';
import { testTarget, type TestTarget } from './engines.js';

export const OWNER = {
  email: 'owner@example.com',
  name: 'Olive Owner',
  password: 'correct horse battery staple',
};

export interface Identity {
  userId: number;
  email: string;
  password: string;
  /** `Authorization: Bearer …` header of an API key with this role. */
  headers: { authorization: string };
}

export interface TestApp extends Pagewatch {
  /** Base URL once `listen` was asked for. */
  url: string;
  /** Where its data lives (a second app may share it). */
  target: TestTarget['target'];
  /** The owner created at start (unless `setup: false`), with an owner API key. */
  owner: Identity;
  /** `app.inject` as the owner's API key, unless the options carry their own authorization. */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** A new person with this role and an API key of theirs. */
  identity(role: Role, email?: string): Promise<Identity>;
  stop(): Promise<void>;
}

export interface TestAppOptions extends ComposeOptions {
  engine: 'sqlite' | 'postgres';
  /** Run the scheduler (off by default: API tests drive state themselves). */
  scheduler?: boolean;
  listen?: boolean;
  /** The port to listen on (default any free one): tests that set a public URL pick it first. */
  port?: number;
  webDist?: string | null;
  /** Create the owner account at start (default true). */
  setup?: boolean;
  /** Chromium for browser checks; default the system one. */
  chromiumPath?: string;
  /** Settings that differ from the test defaults. */
  config?: Partial<Config>;
  /** Another process of the same deployment: this app's database (stop() leaves it). */
  sharing?: TestApp;
  /** Where the app logs (tests that read the log); silent by default. */
  logger?: pino.Logger;
}

let seq = 0;

/** A whole Pagewatch on its own database, as main.ts composes it. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const t: TestTarget = options.sharing
    ? { target: options.sharing.target, cleanup: async () => {} }
    : await testTarget(options.engine);
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    database: t.target.kind === 'sqlite' ? t.target : { kind: 'postgres', url: t.target.url },
    logLevel: 'silent',
    roles: options.scheduler ? ['web', 'scheduler', 'notifier'] : ['web'],
    checkConcurrency: 100,
    capacity: 1,
    workers: 1,
    workerIndex: null,
    lease: { renewMs: 2_000, expireMs: 8_000, skewMs: 1_000 },
    chromiumPath:
      options.chromiumPath ?? process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    browserConcurrency: 2,
    publicUrl: undefined,
    webDist: options.webDist ?? null,
    secret: 'test-instance-secret-0123456789abcdef',
    trustProxy: false,
    // Test peers listen on loopback.
    allowPrivateSubscriberWebhooks: true,
    notify: { blockPrivateTargets: false, timeoutMs: 5000, concurrency: 16 },
    metrics: { token: null, basicAuth: null, perMonitor: true, monitorLimit: 10_000 },
    ...options.config,
  };
  const pgSchema = t.target.kind === 'postgres' ? t.target.schema : undefined;
  const {
    engine: _e,
    scheduler: _s,
    listen: _l,
    port: _port,
    webDist: _w,
    chromiumPath: _c,
    config: _config,
    sharing: _sharing,
    logger,
    setup = true,
    ...compose
  } = options;
  const pw = await composePagewatch(
    config,
    logger ?? pino({ level: process.env.PAGEWATCH_TEST_LOG ?? 'silent' }),
    {
      ...compose,
      ...(pgSchema ? { pgSchema } : {}),
    },
  );
  const repos = repositories(pw.database);

  async function identity(
    role: Role,
    email = `${role}-${++seq}@example.com`,
    password = OWNER.password,
  ): Promise<Identity> {
    const now = Date.now();
    const user = await repos.users.insert(
      { email, name: `${role} ${seq}`, role, passwordHash: await hashPassword(password) },
      now,
    );
    const secret = `pw_${randomBase62(40)}`;
    await repos.apiKeys.insert(
      {
        name: `${role} key`,
        prefix: secret.slice(0, 10),
        keyHash: sha256(secret),
        role,
        userId: user.id,
        expiresAt: null,
      },
      now,
    );
    return { userId: user.id, email, password, headers: { authorization: `Bearer ${secret}` } };
  }

  // A second process of the same deployment knows the same owner.
  const owner = options.sharing
    ? options.sharing.owner
    : setup
      ? await identity('owner', OWNER.email, OWNER.password)
      : { userId: 0, email: '', password: '', headers: { authorization: '' } };
  let url = '';
  if (options.listen) url = await pw.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  if (options.scheduler) await pw.startRoles();
  return {
    ...pw,
    url,
    target: t.target,
    owner,
    identity,
    inject: (opts) => {
      const o = typeof opts === 'string' ? { url: opts } : opts;
      const headers = { ...(o.headers ?? {}) };
      if (!('authorization' in headers) && !('cookie' in headers) && owner.headers.authorization)
        headers.authorization = owner.headers.authorization;
      if (headers.authorization === '') delete headers.authorization;
      return pw.app.inject({ ...o, headers });
    },
    stop: async () => {
      await pw.close();
      await t.cleanup();
    },
  };
}
