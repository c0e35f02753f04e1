import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readBackupHeader } from '../../src/services/backup/read.js';

describe('reading a backup header', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-backup-read-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const header = {
    format: 'pagewatch-backup',
    formatVersion: 1,
    migration: '001-initial',
    engine: 'sqlite',
    createdAt: new Date().toISOString(),
    pagewatch: '0.1.0',
    keyFingerprint: '0123456789abcdef',
    tables: [],
  };

  it('leaves no error behind when a truncated file is put down after its first line', async () => {
    const uncaught: unknown[] = [];
    const listener = (err: unknown) => void uncaught.push(err);
    process.on('uncaughtException', listener);
    try {
      // Files of a few lines, cut short of their gzip trailer: gunzip fails at their end.
      for (let lines = 1; lines < 200; lines += 7) {
        const rows = Array.from({ length: lines }, (_, i) => JSON.stringify({ i }));
        const gz = zlib.gzipSync(`${[JSON.stringify(header), ...rows].join('\n')}\n`);
        const file = path.join(dir, `cut-${lines}.gz`);
        fs.writeFileSync(file, gz.subarray(0, gz.length - 4));
        // The header is whole: it is read, and the reader put down after that one line.
        expect((await readBackupHeader(file)).engine).toBe('sqlite');
        await sleep(20);
      }
    } finally {
      process.off('uncaughtException', listener);
    }
    expect(uncaught).toEqual([]);
  });
});
