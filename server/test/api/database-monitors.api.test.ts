import { Monitor, MonitorList, MonitorTrialResult, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startOwnRedis, REDIS_SERVER } from '../fixtures/database-peers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const postgres = {
  type: 'postgres',
  name: 'Orders database',
  host: 'db.example.com',
  username: 'monitor',
  password: 'pg-secret-1',
  database: 'orders',
  query: "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'",
  tls: true,
};
const redis = { type: 'redis', name: 'Cache', host: '127.0.0.1', password: 'redis-secret-1' };

describe.each(engines)('database monitors over the API on %s', (engine) => {
  let t: TestApp;
  let own: Awaited<ReturnType<typeof startOwnRedis>> = null;
  beforeAll(async () => {
    t = await startTestApp({ engine });
    own = await startOwnRedis('redis-secret-1');
  });
  afterAll(async () => {
    await own?.close();
    await t.stop();
  });

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('keeps the password write-only: shown as hasPassword, kept on an update without one, cleared by ""', async () => {
    const m = await create(postgres);
    expect(m).toMatchObject({
      type: 'postgres',
      port: 5432,
      username: 'monitor',
      hasPassword: true,
      tls: true,
      ignoreTrust: false,
      warnDays: 14,
      expected: '',
    });
    expect(JSON.stringify(m)).not.toContain('pg-secret-1');
    const { password: _password, ...rest } = postgres;
    const kept = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...rest, name: 'Orders database (edited)' }),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(Monitor.parse(kept.json())).toMatchObject({ hasPassword: true });
    const cleared = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${m.id}`,
      ...json({ ...rest, password: '' }),
    });
    expect(Monitor.parse(cleared.json())).toMatchObject({ hasPassword: false });
  });

  it('lists each type with its own target', async () => {
    const made = await Promise.all([
      create({ type: 'mysql', name: 'Shop', host: '10.0.0.7', username: 'root', database: 'shop' }),
      create({ type: 'redis', name: 'Sessions', host: 'cache.internal', database: 3 }),
      create({ type: 'mongodb', name: 'Catalogue', host: 'mongo.internal' }),
    ]);
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    const target = (id: number) => list.items.find((i) => i.id === id)?.target;
    expect(made.map((m) => target(m.id))).toEqual([
      'mysql://10.0.0.7:3306/shop',
      'redis://cache.internal:6379/3',
      'mongodb://mongo.internal:27017/admin',
    ]);
    expect(made[2]).toMatchObject({ hasPassword: false, username: '', database: 'admin' });
  });

  it('names the field of each mistake', async () => {
    expect(await errors({ ...postgres, username: '' })).toEqual({
      username: 'Enter the user name',
    });
    expect(await errors({ ...postgres, query: '', expected: '1' })).toEqual({
      expected: 'Enter the query whose first value is compared, or clear the expected value',
    });
    const refused = await errors({ ...redis, command: 'FLUSHALL' });
    expect(refused.command).toMatch(/^Only read commands can be run/);
    expect(await errors({ ...redis, database: 256 })).toEqual({
      database: 'Database numbers are at most 255',
    });
  });

  it('exports the password as a variable reference, never its value', async () => {
    const res = await t.inject('/api/v1/export?format=yaml');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('pg-secret-1');
    const doc = parseYaml(res.body) as { monitors: Record<string, unknown>[] };
    const shop = doc.monitors.find((m) => m.type === 'mysql');
    expect(shop).not.toHaveProperty('password');
    const saved = await create({ ...redis, name: 'Cache with a password', host: 'cache.internal' });
    const again = parseYaml((await t.inject('/api/v1/export?format=yaml')).body) as {
      monitors: Record<string, unknown>[];
    };
    const cache = again.monitors.find((m) => m.name === saved.name);
    expect(cache?.password).toMatch(/^\$\{env:MONITOR_[A-Z0-9_]+_PASSWORD\}$/);
  });

  it('applies a configuration file whose password names a variable, sealing its value', async () => {
    const document = {
      version: 1,
      monitors: [
        {
          key: 'ledger-db',
          type: 'postgres',
          name: 'Ledger database',
          host: 'ledger.internal',
          username: 'monitor',
          password: '${env:LEDGER_DB_PASSWORD}',
        },
      ],
    };
    const missing = await t.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document, env: {} },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/Set the environment variable LEDGER_DB_PASSWORD/);
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document, env: { LEDGER_DB_PASSWORD: 'ledger-secret-1' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    const id = list.items.find((i) => i.name === 'Ledger database')?.id;
    const m = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${id}` })).json());
    expect(m).toMatchObject({ type: 'postgres', hasPassword: true, port: 5432 });
    expect(JSON.stringify(m)).not.toContain('ledger-secret-1');
  });

  // The sealed password reaches the check: a Redis of the test's own requires it.
  it.each(REDIS_SERVER === undefined ? [] : [REDIS_SERVER])(
    'tests a saved monitor with its stored password, which the result never shows (%s)',
    async () => {
      const m = await create({ ...redis, name: 'Own Redis', port: own?.port });
      const { password: _password, ...rest } = redis;
      const res = await t.inject({
        method: 'POST',
        url: `/api/v1/monitors/${m.id}/test`,
        ...json({
          ...rest,
          name: 'Own Redis',
          port: own?.port,
          command: 'ECHO redis-secret-1',
          expected: 'nope',
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const run = MonitorTrialResult.parse(res.json());
      // Logged in with the stored password; the echoed secret is masked in what comes back.
      expect(run.errorCode).toBe('unexpected_value');
      expect(run.errorMessage).toContain('••••');
      expect(res.body).not.toContain('redis-secret-1');
    },
  );
});
