import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/database.js';

/** Set in CI: the PostgreSQL suite runs only where a real server is reachable. */
export const postgresUrl = process.env.PAGEWATCH_TEST_POSTGRES_URL || undefined;

/** The engines every storage and scenario suite runs against. */
export const engines: ('sqlite' | 'postgres')[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestTarget {
  target: DatabaseTarget;
  /** Removes what the target created (the SQLite folder or the PostgreSQL schema). */
  cleanup(): Promise<void>;
}

/** A database of its own for one test file: a temp SQLite file or a fresh PostgreSQL schema. */
export async function testTarget(engine: 'sqlite' | 'postgres'): Promise<TestTarget> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-test-'));
    return {
      target: { kind: 'sqlite', file: path.join(dir, 'test.db') },
      cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!postgresUrl) throw new Error('PAGEWATCH_TEST_POSTGRES_URL is not set');
  const schema = `pw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    target: { kind: 'postgres', url: postgresUrl, schema },
    cleanup: async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

export async function openTestDatabase(
  engine: 'sqlite' | 'postgres',
): Promise<{ database: Database; cleanup(): Promise<void> }> {
  const t = await testTarget(engine);
  const database = await openDatabase(t.target);
  return {
    database,
    cleanup: async () => {
      await database.close();
      await t.cleanup();
    },
  };
}
