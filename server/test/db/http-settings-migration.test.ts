import SQLite from 'better-sqlite3';
import { HttpMonitorInput } from '@pagewatch/contract';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrations/index.js';
import { repositories } from '../../src/db/repositories/index.js';
import { splitInput } from '../../src/domain/monitor.js';
import { engines, testTarget } from '../support/engines.js';

const T0 = Date.UTC(2026, 0, 1);

/** A bare connection, so the test can stop migrating before 008. */
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

describe.each(engines)('migration 008 on %s', (engine) => {
  it("turns an HTTP monitor's keyword into a keyword assertion and fills the new options", async () => {
    const t = await testTarget(engine);
    const raw = connect(t.target);
    try {
      await migrateTo(raw, engine, '004-totp-last-step');
      const legacy = {
        url: 'https://example.com/',
        method: 'POST',
        headers: [],
        body: 'ping',
        acceptedStatusCodes: ['200-299'],
        followRedirects: true,
        maxRedirects: 10,
        keyword: { value: 'Welcome', mode: 'absent', caseSensitive: false },
        ignoreTls: false,
      };
      const plain = { ...legacy, body: '', keyword: null };
      const ids: number[] = [];
      for (const config of [legacy, plain]) {
        const row = await raw
          .insertInto('monitors')
          .values({
            type: 'http',
            name: 'Before 008',
            config: JSON.stringify(config),
            interval_s: 60,
            timeout_s: 10,
            retries: 1,
            created_at: T0,
            updated_at: T0,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(Number(row.id));
      }
      await migrateToLatest(raw, engine);
      await raw.destroy();
      const database = await openDatabase(t.target);
      try {
        const repos = repositories(database);
        const [withKeyword, without] = await Promise.all(
          ids.map((id) => repos.monitors.findById(id)),
        );
        expect(withKeyword?.settings).toEqual({
          url: 'https://example.com/',
          method: 'POST',
          headers: [],
          bodyType: 'raw',
          body: 'ping',
          auth: { kind: 'none' },
          acceptedStatusCodes: ['200-299'],
          followRedirects: true,
          maxRedirects: 10,
          ipFamily: 'auto',
          ignoreTls: false,
          maxBodyBytes: 1024 * 1024,
          assertions: [
            {
              kind: 'keyword',
              value: 'Welcome',
              mode: 'absent',
              caseSensitive: false,
              soft: false,
            },
          ],
        });
        expect(without?.settings).toMatchObject({ bodyType: 'none', assertions: [] });
        expect(without?.lastDetails).toBeNull();
        expect(without?.secret).toBeNull();
        // What the migration wrote is a valid definition today.
        for (const m of [withKeyword, without]) {
          const { name, interval, timeout, retries } = m!;
          const parsed = HttpMonitorInput.safeParse({
            type: 'http',
            name,
            interval,
            timeout,
            retries,
            ...m!.settings,
          });
          expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
          // Only options added after this migration come in, at their defaults.
          expect(splitInput(parsed.data!).settings).toEqual({
            ...m!.settings,
            domainExpiry: null,
          });
        }
      } finally {
        await database.close();
      }
    } finally {
      await t.cleanup();
    }
  });
});
