import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BackupStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { runDueBackup } from '../../src/services/backup/scheduled.js';
import { verifyBackupFile } from '../../src/services/backup/read.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_SECRET } from '../support/backup.js';
import { engines } from '../support/engines.js';

const HOUR = 3_600_000;

describe.each(engines)('scheduled backups on %s', (engine) => {
  let t: TestApp;
  let folder: string;
  const clock = { at: Date.parse('2026-11-27T10:00:00Z'), now: () => clock.at };

  beforeAll(async () => {
    t = await startTestApp({ engine, clock });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-scheduled-'));
    await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name: 'Backed up', url: 'http://127.0.0.1:9/' },
    });
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const schedule = (body: unknown, headers = t.owner.headers) =>
    t.inject({ method: 'PUT', url: '/api/v1/backup/schedule', payload: body as object, headers });

  it('takes a schedule from admins only, and checks it', async () => {
    const editor = await t.identity('editor');
    const body = { enabled: true, intervalHours: 6, folder, keep: 2 };
    expect((await schedule(body, editor.headers)).statusCode).toBe(403);
    const bad = await schedule({ enabled: true, intervalHours: 0, folder: 'backups', keep: 0 });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['folder', 'intervalHours', 'keep']);
    const saved = await schedule(body);
    expect(saved.statusCode).toBe(200);
    // Stored beside the other settings groups, which read on undisturbed.
    expect((await t.inject('/api/v1/settings')).statusCode).toBe(200);
    expect(BackupStatus.parse(saved.json())).toMatchObject({
      settings: body,
      folder,
      lastSuccess: null,
      nextAt: new Date(clock.at).toISOString(),
    });
  });

  it('writes a backup when due, keeps the newest N, and shows the last one in status and /metrics', async () => {
    const deps = {
      repos: repositories(t.database),
      clock,
      dataDir: '/nonexistent',
      instanceKey: loadSecretKey(TEST_SECRET, '/nonexistent'),
    };
    expect(await runDueBackup(deps)).toBe(true);
    // Not due again until the interval has passed.
    clock.at += HOUR;
    expect(await runDueBackup(deps)).toBe(false);
    for (let i = 0; i < 3; i++) {
      clock.at += 6 * HOUR;
      expect(await runDueBackup(deps)).toBe(true);
    }
    const files = fs.readdirSync(folder).sort();
    expect(files).toEqual([
      'pagewatch-2026-11-27T23-00-00Z.pagewatch-backup.gz',
      'pagewatch-2026-11-28T05-00-00Z.pagewatch-backup.gz',
    ]);
    const newest = path.join(folder, files[1]!);
    const check = await verifyBackupFile(newest);
    expect(check.header.createdAt).toBe('2026-11-28T05:00:00.000Z');

    const status = BackupStatus.parse((await t.inject('/api/v1/backup/status')).json());
    expect(status.lastSuccess).toMatchObject({
      at: '2026-11-28T05:00:00.000Z',
      kind: 'scheduled',
      bytes: fs.statSync(newest).size,
      file: newest,
      error: null,
    });
    expect(status.nextAt).toBe('2026-11-28T11:00:00.000Z');
    const metrics = (await t.inject('/metrics')).body;
    expect(metrics).toContain(`pagewatch_backup_last_size_bytes ${fs.statSync(newest).size}`);
    expect(metrics).toContain(
      `pagewatch_backup_last_success_timestamp_seconds ${Date.parse('2026-11-28T05:00:00Z') / 1000}`,
    );
  });

  it('records a failure, with why, when the folder cannot be written', async () => {
    const blocker = path.join(folder, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    await schedule({ enabled: true, intervalHours: 1, folder: blocker, keep: 2 });
    clock.at += 6 * HOUR;
    const deps = {
      repos: repositories(t.database),
      clock,
      dataDir: '/nonexistent',
      instanceKey: loadSecretKey(TEST_SECRET, '/nonexistent'),
    };
    await expect(runDueBackup(deps)).rejects.toThrow(/EEXIST|ENOTDIR/);
    const status = BackupStatus.parse((await t.inject('/api/v1/backup/status')).json());
    expect(status.lastFailure).toMatchObject({ kind: 'scheduled', bytes: null });
    expect(status.lastFailure!.error).toMatch(/EEXIST|ENOTDIR/);
    expect(status.lastSuccess!.at).toBe('2026-11-28T05:00:00.000Z');
  });
});
