import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { TestApp } from './app.js';

/**
 * The real Uptime Kuma 2.5.3 database (README.md beside it lists its content), copied from the
 * project's shared fixtures into the repository so a clone tests without them.
 */
export const KUMA_FIXTURE = path.resolve(import.meta.dirname, '../fixtures/uptime-kuma-2.5.3');
export const kumaDb = fs.readFileSync(path.join(KUMA_FIXTURE, 'kuma.db'));
export const kumaManifest = JSON.parse(
  fs.readFileSync(path.join(KUMA_FIXTURE, 'build-manifest.json'), 'utf8'),
) as { monitors: Record<string, number> };

/** The day after the fixture was made, running: its statistics stay within the 90 days read. */
const started = Date.now();
export const fixtureClock = {
  now: (): number => Date.UTC(2026, 10, 26, 12) + (Date.now() - started),
};

/** The fixture in memory; SQLite opens a WAL-mode image only as a rollback-journal one. */
function openFixture(): SQLite.Database {
  const bytes = Buffer.from(kumaDb);
  bytes[18] = bytes[19] = 1;
  return new SQLite(bytes);
}

/** The fixture's tables, read with SQLite itself (an in-memory copy: the file stays as it is). */
export function fixtureRows<T>(sql: string): T[] {
  const db = openFixture();
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** The fixture with one change made by SQL, as bytes. */
export function alteredFixture(sql: string): Buffer {
  const db = openFixture();
  try {
    db.exec(sql);
    return db.serialize();
  } finally {
    db.close();
  }
}

/** POST /api/v1/import/uptime-kuma with the file as the body, as the owner. */
export function uploadKuma(t: TestApp, bytes: Uint8Array, dryRun = false) {
  return t.inject({
    method: 'POST',
    url: `/api/v1/import/uptime-kuma${dryRun ? '?dryRun=true' : ''}`,
    headers: { ...t.owner.headers, 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
}
