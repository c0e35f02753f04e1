import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedMigrations, backupRepository, migrateUpTo } from '../../src/db/backup/index.js';
import { openDatabase } from '../../src/db/database.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { createBackup } from '../../src/services/backup/create.js';
import { restoreBackup } from '../../src/services/backup/restore.js';
import { readBackup, restoreConfig, TEST_SECRET } from '../support/backup.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';

const OLDER = '018-config-keys';

/** A backup made by an older Pagewatch: its schema stops before the latest migration. */
describe.each(engines)('a backup of an older schema on %s', (engine) => {
  let dir: string;
  let file: string;
  const targets: TestTarget[] = [];
  const target = async () => {
    const t = await testTarget(engine);
    targets.push(t);
    return t;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-older-'));
    const source = await target();
    const database = await openDatabase(source.target, { migrate: false });
    await migrateUpTo(database, OLDER);
    await sql`insert into monitors (type, name, config, interval_s, timeout_s, retries, tags,
      description, paused, created_at, updated_at) values ('http', 'Old', '{"url":"http://127.0.0.1:9/"}',
      60, 10, 1, '[]', '', 0, 1, 1)`.execute(database.db);
    const backup = await createBackup({
      backup: backupRepository(database),
      instanceKey: loadSecretKey(TEST_SECRET, '/nonexistent'),
      clock: { now: () => Date.now() },
    });
    file = path.join(dir, 'older.gz');
    await pipeline(backup.stream, fs.createWriteStream(file));
    await database.close();
  });
  afterAll(async () => {
    for (const t of targets) await t.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores into a new database at its own schema, then the later migrations run over it', async () => {
    const { header, tables } = await readBackup(file);
    expect(header.migration).toBe(OLDER);
    expect(tables.has('backup_runs')).toBe(false);
    const fresh = await target();
    const report = await restoreBackup(restoreConfig(fresh.target), file);
    expect(report.tables.get('monitors')).toBe(1);
    const database = await openDatabase(fresh.target, { migrate: false });
    const applied = await appliedMigrations(database);
    const names = await database.db.selectFrom('monitors').select('name').execute();
    await database.close();
    expect(applied.at(-1)).toBe(report.migration);
    expect(applied.at(-1)! > OLDER).toBe(true);
    expect(names).toEqual([{ name: 'Old' }]);
  });

  it('is refused by a database already past its schema (there are no down-migrations)', async () => {
    const current = await target();
    const database = await openDatabase(current.target);
    const before = await appliedMigrations(database);
    await database.close();
    await expect(restoreBackup(restoreConfig(current.target), file)).rejects.toThrow(
      `This backup is of an older schema (${OLDER}) than this database (${before.at(-1)}). Restore it into a new database`,
    );
  });
});
