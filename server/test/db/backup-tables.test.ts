import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { BACKUP_TABLES, EXCLUDED_TABLES, backupRepository } from '../../src/db/backup/index.js';
import { engines, openTestDatabase } from '../support/engines.js';

/** A new table must be placed in the backup's order (or excluded with a reason, ADR 29). */
describe.each(engines)('backup tables on %s', (engine) => {
  let opened: { database: Database; cleanup(): Promise<void> };
  beforeAll(async () => void (opened = await openTestDatabase(engine)));
  afterAll(async () => opened.cleanup());

  it('names every table of the schema, each once, as backed up or left out', async () => {
    const { rows } =
      engine === 'postgres'
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
            opened.database.db,
          )
        : await sql<{ name: string }>`select name from sqlite_master
            where type = 'table' and name not like 'sqlite_%'`.execute(opened.database.db);
    const classified = [...BACKUP_TABLES, ...EXCLUDED_TABLES];
    expect(new Set(classified).size).toBe(classified.length);
    expect(rows.map((r) => r.name).sort()).toEqual([...classified].sort());
  });
});

/** SQLite only: PostgreSQL has no WAL file for a checkpointer to truncate. */
describe('a SQLite backup', () => {
  let opened: { database: Database; cleanup(): Promise<void> };
  beforeAll(async () => void (opened = await openTestDatabase('sqlite')));
  afterAll(async () => opened.cleanup());

  it('marks the file while a snapshot is open, so checkpointers leave its WAL alone', async () => {
    const marker = `${opened.database.file}-backup`;
    const first = await backupRepository(opened.database).snapshot();
    expect(fs.readFileSync(marker, 'utf8')).toBe(`${process.pid}\n`);
    const second = await backupRepository(opened.database).snapshot();
    await first.close();
    // The other backup still holds its snapshot.
    expect(fs.existsSync(marker)).toBe(true);
    await second.close();
    expect(fs.existsSync(marker)).toBe(false);
  });
});
