import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Snapshot } from '../../db/backup/index.js';
import type { BackupRepository } from '../../db/backup/index.js';
import type { Clock } from '../../lib/clock.js';
import { VERSION } from '../../version.js';
import { encodeRow, headerLine, keyFingerprint } from './format.js';

export interface BackupSource {
  backup: BackupRepository;
  instanceKey: Buffer;
  clock: Clock;
}

/** The file's lines for one snapshot; the snapshot is closed when they end or are abandoned. */
async function* lines(snapshot: Snapshot, key: Buffer, at: Date): AsyncGenerator<string> {
  try {
    yield (
      headerLine({
        format: 'pagewatch-backup',
        formatVersion: 1,
        migration: snapshot.migration,
        engine: snapshot.engine,
        createdAt: at.toISOString(),
        pagewatch: VERSION,
        keyFingerprint: keyFingerprint(key),
        tables: snapshot.tables.map((t) => t.name),
      }) + '\n'
    );
    let total = 0;
    for (const table of snapshot.tables) {
      yield JSON.stringify({ kind: 'table', name: table.name, columns: table.columns }) + '\n';
      let rows = 0;
      for await (const batch of table.batches()) {
        rows += batch.length;
        // One chunk per batch: fewer, larger writes into gzip.
        yield batch.map(encodeRow).join('\n') + '\n';
      }
      total += rows;
      yield JSON.stringify({ kind: 'end', name: table.name, rows }) + '\n';
    }
    yield JSON.stringify({ kind: 'trailer', tables: snapshot.tables.length, rows: total }) + '\n';
  } finally {
    await snapshot.close();
  }
}

export interface BackupStream {
  /** The gzip bytes; counting `bytes` as they pass. */
  stream: Readable;
  /** Bytes produced so far (the file's size once the stream ended). */
  bytes(): number;
  createdAt: Date;
}

/**
 * A backup of everything, read from one consistent snapshot, as a gzip stream. The snapshot is
 * opened before this returns, so a database that cannot be read fails here, not mid-download.
 */
export async function createBackup(deps: BackupSource): Promise<BackupStream> {
  const snapshot = await deps.backup.snapshot();
  const createdAt = new Date(deps.clock.now());
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const source = Readable.from(lines(snapshot, deps.instanceKey, createdAt));
  // Level 4: 4 % more bytes than level 6 for a third of its CPU (docs/benchmarks.md, backup).
  const gzip = zlib.createGzip({ level: 4 });
  pipeline(source, gzip, counter).catch(() => {
    // The consumer sees the error as the stream's; the snapshot closed in lines().
  });
  return { stream: counter, bytes: () => bytes, createdAt };
}
