import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { restoreBackup } from '../../src/services/backup/restore.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dumpTable, readBackup, restoreConfig } from '../support/backup.js';
import { engines, postgresUrl, testTarget, type TestTarget } from '../support/engines.js';

/** A small instance with something of every kind a backup must carry, binary values included. */
async function populate(t: TestApp): Promise<void> {
  const channel = await t.inject({
    method: 'POST',
    url: '/api/v1/notification-channels',
    payload: {
      name: 'Ops hook',
      kind: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
      secrets: { signingSecret: 'hook-signing-secret' },
    },
  });
  expect(channel.statusCode).toBe(201);
  const ids: number[] = [];
  for (const n of [1, 2, 3]) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name: `Site ${n}`, url: `http://127.0.0.1:9/${n}`, interval: 60 },
    });
    expect(res.statusCode).toBe(201);
    ids.push(res.json<{ id: number }>().id);
  }
  const page = await t.inject({
    method: 'POST',
    url: '/api/v1/status-pages',
    payload: {
      slug: 'status',
      title: 'Status',
      sections: [{ title: 'Web', components: [{ monitorId: ids[0] }] }],
    },
  });
  expect(page.statusCode).toBe(201);
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const logo = await t.inject({
    method: 'PUT',
    url: `/api/v1/status-pages/${page.json<{ id: number }>().id}/logo`,
    headers: { 'content-type': 'image/png' },
    payload: png,
  });
  expect(logo.statusCode).toBe(200);
}

async function download(t: TestApp, dir: string, name = 'backup.pagewatch-backup.gz') {
  const res = await t.inject('/api/v1/backup');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/gzip');
  const file = path.join(dir, name);
  fs.writeFileSync(file, res.rawPayload);
  return file;
}

/** Rewrites a backup's lines (ungzipped), for damaged and foreign files. */
function rewrite(file: string, to: string, edit: (lines: string[]) => string[]): string {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n');
  fs.writeFileSync(to, zlib.gzipSync(edit(lines).join('\n')));
  return to;
}

async function freshSqlite(): Promise<TestTarget> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-restore-'));
  return {
    target: { kind: 'sqlite', file: path.join(dir, 'pagewatch.db') },
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function expectSameAsFile(file: string, target: DatabaseTarget): Promise<void> {
  const { tables } = await readBackup(file);
  const database = await openDatabase(target);
  try {
    for (const [table, { columns, rows }] of tables)
      expect({ table, rows: await dumpTable(database, table, columns) }).toEqual({ table, rows });
  } finally {
    await database.close();
  }
}

describe.each(engines)('backup and restore on %s', (engine) => {
  let source: TestApp;
  let dir: string;
  let file: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    source = await startTestApp({ engine });
    await populate(source);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-backup-test-'));
    file = await download(source, dir);
  });
  afterAll(async () => {
    await source.stop();
    for (const c of cleanups) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function instance(populated: boolean): Promise<TestApp> {
    const t = await startTestApp({ engine });
    cleanups.push(() => t.stop());
    if (populated)
      await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: { type: 'http', name: 'Already here', url: 'http://127.0.0.1:9/' },
      });
    return t;
  }

  it('lets admins and owners download a backup, and refuses editors and viewers', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const who = await source.identity(role);
      const res = await source.inject({ url: '/api/v1/backup', headers: who.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: 'forbidden' });
    }
    const admin = await source.identity('admin');
    const res = await source.inject({ url: '/api/v1/backup', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="pagewatch-.*\.pagewatch-backup\.gz"$/,
    );
    // Who took everything away is in the audit log.
    const audit = await source.inject('/api/v1/audit?action=backup.download');
    const items = audit.json<{ items: { actor: { label: string }; summary: string }[] }>().items;
    expect(items[0]).toMatchObject({
      actor: { label: 'admin key' },
      summary: expect.stringMatching(/^downloaded backup pagewatch-.*\.pagewatch-backup\.gz$/),
    });
  });

  it('restores into an instance holding only its setup owner, replacing that owner', async () => {
    const target = await instance(false);
    await target.close();
    const report = await restoreBackup(restoreConfig(target.target), file);
    expect(report.tables.get('monitors')).toBe(3);
    await expectSameAsFile(file, target.target);
  });

  it('refuses an instance that holds monitors, and leaves it as it was', async () => {
    const target = await instance(true);
    await target.close();
    await expect(restoreBackup(restoreConfig(target.target), file)).rejects.toThrow(
      /This instance is not empty \(1 monitors row\)/,
    );
    const database = await openDatabase(target.target);
    const names = await database.db.selectFrom('monitors').select('name').execute();
    await database.close();
    expect(names).toEqual([{ name: 'Already here' }]);
  });

  it('refuses another instance key, naming the key it needs', async () => {
    const { header } = await readBackup(file);
    const fresh = await freshSqlite();
    cleanups.push(() => fresh.cleanup());
    const config = restoreConfig(fresh.target, 'a-different-secret-for-another-instance');
    await expect(restoreBackup(config, file)).rejects.toThrow(
      new RegExp(
        `sealed with the key whose fingerprint is ${header.keyFingerprint}; this instance's key has fingerprint [0-9a-f]{16}`,
      ),
    );
    await expect(restoreBackup(restoreConfig(fresh.target, null), file)).rejects.toThrow(
      /this instance has no key yet: set PAGEWATCH_SECRET/,
    );
    expect(fs.existsSync((fresh.target as { file: string }).file)).toBe(false);
  });

  it('refuses a backup of a newer schema and a newer format', async () => {
    const fresh = await freshSqlite();
    cleanups.push(() => fresh.cleanup());
    const newer = rewrite(file, path.join(dir, 'newer.gz'), ([head, ...rest]) => [
      JSON.stringify({
        ...JSON.parse(head!),
        migration: '999-from-the-future',
        pagewatch: '9.0.0',
      }),
      ...rest,
    ]);
    await expect(restoreBackup(restoreConfig(fresh.target), newer)).rejects.toThrow(
      /made by a newer Pagewatch \(9\.0\.0, schema 999-from-the-future\)/,
    );
    const format = rewrite(file, path.join(dir, 'format.gz'), ([head, ...rest]) => [
      JSON.stringify({ ...JSON.parse(head!), formatVersion: 2 }),
      ...rest,
    ]);
    await expect(restoreBackup(restoreConfig(fresh.target), format)).rejects.toThrow(
      /backup format version 2; this Pagewatch reads version 1/,
    );
  });

  it('refuses a truncated or damaged file with nothing written, the setup owner kept', async () => {
    const target = await instance(false);
    await target.close();
    const bytes = fs.readFileSync(file);
    const truncated = path.join(dir, 'truncated.gz');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(restoreBackup(restoreConfig(target.target), truncated)).rejects.toThrow(
      /truncated/,
    );
    // Whole gzip, but a row goes missing near the end: found after most tables were written.
    const damaged = rewrite(file, path.join(dir, 'damaged.gz'), (lines) => {
      const end = lines.findIndex((l) => l.startsWith('{"kind":"end","name":"status_pages"'));
      return [...lines.slice(0, end - 1), ...lines.slice(end)];
    });
    await expect(restoreBackup(restoreConfig(target.target), damaged)).rejects.toThrow(
      /damaged: table status_pages holds 0 rows, its end line says 1/,
    );
    const notGzip = path.join(dir, 'plain.json');
    fs.writeFileSync(notGzip, '{"hello":"world"}\n');
    await expect(restoreBackup(restoreConfig(target.target), notGzip)).rejects.toThrow(
      /not a Pagewatch backup/,
    );
    const database = await openDatabase(target.target);
    const users = await database.db.selectFrom('users').select('email').execute();
    const monitors = await database.db.selectFrom('monitors').select('id').execute();
    await database.close();
    expect(users).toEqual([{ email: 'owner@example.com' }]);
    expect(monitors).toEqual([]);
  });
});

describe.runIf(postgresUrl)('a backup moves between engines', () => {
  let dir: string;
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores SQLite into PostgreSQL and that back into SQLite, every row the same', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cross-'));
    const sqlite = await startTestApp({ engine: 'sqlite' });
    cleanups.push(() => sqlite.stop());
    await populate(sqlite);
    const fromSqlite = await download(sqlite, dir, 'from-sqlite.gz');

    const pg = await testTarget('postgres');
    cleanups.push(() => pg.cleanup());
    await restoreBackup(restoreConfig(pg.target), fromSqlite);
    await expectSameAsFile(fromSqlite, pg.target);

    const onPg = await startTestApp({
      engine: 'postgres',
      sharing: { target: pg.target, owner: sqlite.owner } as TestApp,
    });
    const created = await onPg.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name: 'Made on PostgreSQL', url: 'http://127.0.0.1:9/pg' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ id: number }>().id).toBe(4);
    const fromPg = await download(onPg, dir, 'from-pg.gz');
    await onPg.close();

    const back = await freshSqlite();
    cleanups.push(() => back.cleanup());
    await restoreBackup(restoreConfig(back.target), fromPg);
    await expectSameAsFile(fromPg, back.target);
    const { tables } = await readBackup(fromPg);
    expect(tables.get('monitors')!.rows).toHaveLength(4);
    expect(tables.get('status_pages')!.rows[0]).toContain('{"$b":');
  });
});
