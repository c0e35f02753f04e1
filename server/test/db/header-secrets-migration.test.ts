import SQLite from 'better-sqlite3';
import { BrowserMonitorInput, HttpMonitorInput } from '@pagewatch/contract';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrations/index.js';
import { repositories } from '../../src/db/repositories/index.js';
import { httpSpecOf } from '../../src/engine/checks/http/spec-of.js';
import { browserSpecOf } from '../../src/engine/checks/browser/spec-of.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { engines, testTarget } from '../support/engines.js';

const T0 = Date.UTC(2026, 0, 1);
const KEY = 'migrated-key-never-clear-44';
const COOKIE = 'sid=migrated-cookie-45';
const box = new SecretBox(Buffer.alloc(32, 7));

/** A bare connection, so the test can stop migrating before 013. */
function connect(target: DatabaseTarget): Kysely<any> {
  if (target.kind === 'sqlite') {
    return new Kysely({ dialect: new SqliteDialect({ database: new SQLite(target.file) }) });
  }
  const options = target.schema ? `-c search_path=${target.schema}` : undefined;
  return new Kysely({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: target.url, max: 2, ...(options ? { options } : {}) }),
    }),
  });
}

const common = { interval_s: 60, timeout_s: 10, retries: 1, created_at: T0, updated_at: T0 };

const httpConfig = {
  url: 'https://api.example.com/',
  method: 'GET',
  headers: [
    { name: 'X-Api-Key', value: KEY },
    { name: 'Accept', value: 'application/json' },
    { name: 'X-Empty', value: '' },
  ],
  bodyType: 'none',
  body: '',
  auth: { kind: 'none' },
  acceptedStatusCodes: ['200-299'],
  followRedirects: true,
  maxRedirects: 10,
  ipFamily: 'auto',
  ignoreTls: false,
  assertions: [],
  maxBodyBytes: 1024 * 1024,
};

const browserConfig = {
  url: 'https://shop.example.com/',
  viewport: 'desktop',
  waitFor: 'load',
  waitSelector: '',
  requiredText: '',
  requiredSelector: '',
  lcpThresholdMs: null,
  failOnJsError: true,
  basicAuth: null,
  headers: [
    { name: 'Cookie', value: COOKIE },
    { name: 'user-agent', value: 'Probe/1' },
  ],
};

async function insert(raw: Kysely<any>, type: string, config: unknown): Promise<number> {
  const row = await raw
    .insertInto('monitors')
    .values({ type, name: `Before 013 (${type})`, config: JSON.stringify(config), ...common })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

describe.each(engines)('migration 013 on %s', (engine) => {
  it('seals every existing header value but the harmless and empty ones; checks send them as before', async () => {
    const t = await testTarget(engine);
    const raw = connect(t.target);
    try {
      await migrateTo(raw, engine, '012-incident-auto-title');
      const httpId = await insert(raw, 'http', httpConfig);
      const browserId = await insert(raw, 'browser', browserConfig);
      const plainId = await insert(raw, 'http', { ...httpConfig, headers: [] });
      await migrateToLatest(raw, engine, { seal: (text) => box.seal(text) });

      const rows = await raw
        .selectFrom('monitors')
        .select(['id', 'config', 'header_secrets'])
        .orderBy('id')
        .execute();
      // After the upgrade no header value is left in clear anywhere in the table.
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(KEY);
      expect(dump).not.toContain(COOKIE);
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      expect(byId.get(plainId)?.header_secrets).toBeNull();

      const database = await openDatabase(t.target);
      try {
        const repos = repositories(database);
        const http = (await repos.monitors.findById(httpId))!;
        expect(http.settings).toMatchObject({
          headers: [
            { name: 'X-Api-Key', secret: true },
            { name: 'Accept', secret: false, value: 'application/json' },
            { name: 'X-Empty', secret: false, value: '' },
          ],
        });
        const open = (sealed: string) => box.open(sealed);
        expect(httpSpecOf(http, { openSecret: open }).headers).toEqual(httpConfig.headers);
        const browser = (await repos.monitors.findById(browserId))!;
        expect(browserSpecOf(browser, open).headers).toEqual(browserConfig.headers);

        // What the migration wrote is a valid definition today.
        const parsed = [
          HttpMonitorInput.safeParse({ type: 'http', name: 'x', ...http.settings }),
          BrowserMonitorInput.safeParse({ type: 'browser', name: 'x', ...browser.settings }),
        ];
        for (const p of parsed) expect(p.success, JSON.stringify(p.error?.issues)).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      await raw.destroy();
      await t.cleanup();
    }
  });

  it('refuses to upgrade a header it cannot seal rather than leave it in clear', async () => {
    const t = await testTarget(engine);
    const raw = connect(t.target);
    try {
      await migrateTo(raw, engine, '012-incident-auto-title');
      const id = await insert(raw, 'http', httpConfig);
      await expect(migrateToLatest(raw, engine)).rejects.toThrow(
        'Database migration failed (013-header-secrets): Sealing monitor request headers needs the instance secret key',
      );
      const row = await raw
        .selectFrom('monitors')
        .select('config')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.config as string)).toMatchObject({ headers: httpConfig.headers });
    } finally {
      await raw.destroy();
      await t.cleanup();
    }
  });
});
