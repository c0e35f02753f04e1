// The backup's gzip level: one day of history for 200 monitors (bench/lib/history-data.mjs),
// read as a backup reads it, then compressed at levels 1, 4 and 6; prints size and CPU.
// Usage: npm run build && node bench/tools/backup-gzip-levels.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import zlib from 'node:zlib';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { openDatabase } = await import(`${root}/server/dist/db/database.js`);
const { backupRepository } = await import(`${root}/server/dist/db/backup/index.js`);
const { encodeRow } = await import(`${root}/server/dist/services/backup/format.js`);
const { generateHistory } = await import(`${root}/bench/lib/history-data.mjs`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gz-'));
const file = path.join(dir, 'pagewatch.db');
const db = await openDatabase({ kind: 'sqlite', file });
const stmt = (await import('kysely')).sql;
for (let i = 0; i < 200; i++)
  await stmt`insert into monitors (type, name, config, interval_s, timeout_s, retries, tags, description, paused, created_at, updated_at) values ('http', ${'m' + i}, '{"url":"http://127.0.0.1:9/"}', 60, 10, 1, '[]', '', 0, 1, 1)`.execute(
    db.db,
  );
await db.close();
generateHistory(file, { now: Date.now(), days: 1 });
const d2 = await openDatabase({ kind: 'sqlite', file });
const snap = await backupRepository(d2).snapshot();
const chunks = [];
for (const t of snap.tables)
  for await (const b of t.batches()) chunks.push(b.map(encodeRow).join('\n') + '\n');
await snap.close();
await d2.close();
const text = Buffer.from(chunks.join(''));
console.log(
  `sample: ${(text.length / 2 ** 20).toFixed(1)} MiB of lines from ${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MiB of SQLite`,
);
for (const level of [1, 4, 6]) {
  const t0 = process.cpuUsage();
  const out = zlib.gzipSync(text, { level });
  const cpu = process.cpuUsage(t0);
  console.log(
    `level ${level}: ${(out.length / 2 ** 20).toFixed(1)} MiB, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
