import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The checkpointer's code, run in a worker thread with its own connection. Kept as a string
 * so it needs no file of its own next to the build or the test sources.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
let stopped = false;
const tick = () => {
  if (stopped) return;
  try {
    // PASSIVE copies what it can without waiting for readers or the writer.
    const [done] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under steady writes the WAL is never wholly copied at the moment a writer starts, so it
    // never rewinds and grows by gigabytes: past the limit, wait briefly for the readers and
    // truncate it (writers wait for that moment; PASSIVE already copied nearly everything).
    // A backup's snapshot (backupMarker) keeps the WAL whatever we do: truncating would only
    // stall the writer for the wait, every second, until the backup ends.
    const marker = fs.statSync(workerData.file + '-backup', { throwIfNoEntry: false });
    const backingUp = marker && Date.now() - marker.mtimeMs < workerData.markerFreshMs;
    if (done && done.log > workerData.truncateFrames && !backingUp) {
      db.pragma('busy_timeout = ' + workerData.truncateWaitMs);
      const [cut] = db.pragma('wal_checkpoint(TRUNCATE)');
      db.pragma('busy_timeout = 5000');
      if (cut && cut.busy) parentPort.postMessage({ busy: done.log });
    }
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
  setTimeout(tick, workerData.everyMs);
};
setTimeout(tick, workerData.everyMs);
parentPort.on('message', (msg) => {
  if (msg !== 'stop') return;
  stopped = true;
  try { db.close(); } catch {}
  parentPort.postMessage('stopped');
});
`;

/** WAL frames (4 KiB pages) past which the WAL is truncated: 64 MiB. */
const TRUNCATE_FRAMES = 16_384;

/** A backup's marker older than this is left by a process that died: truncation goes on. */
const BACKUP_MARKER_FRESH_MS = 30_000;

/**
 * Marks a long read of `file` (a backup) for every checkpointer on the machine, so they stop
 * trying to truncate the WAL it holds; kept fresh while it lasts. Returns the release.
 */
export function backupMarker(file: string): () => void {
  const marker = `${file}-backup`;
  // Two backups at once (a download during a scheduled one) share the marker: the last removes it.
  let held = markers.get(marker);
  if (!held) {
    const touch = () => fs.writeFileSync(marker, `${process.pid}\n`);
    touch();
    const timer = setInterval(touch, BACKUP_MARKER_FRESH_MS / 3);
    timer.unref();
    held = { count: 0, timer };
    markers.set(marker, held);
  }
  held.count += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.count -= 1;
    if (held.count > 0) return;
    clearInterval(held.timer);
    markers.delete(marker);
    fs.rmSync(marker, { force: true });
  };
}

const markers = new Map<string, { count: number; timer: NodeJS.Timeout }>();

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the event loop. With the default auto-checkpoint every
 * 1,000 pages, the committing thread copies the WAL into the database and fsyncs it: on a
 * busy disk that is hundreds of milliseconds to seconds, during which no check can start.
 * The main connection turns auto-checkpoint off and this thread checkpoints every second.
 */
export function startCheckpointer(
  file: string,
  onError: (message: string) => void,
  everyMs = 1000,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      file,
      driver,
      everyMs,
      truncateFrames: TRUNCATE_FRAMES,
      truncateWaitMs: 200,
      markerFreshMs: BACKUP_MARKER_FRESH_MS,
    },
  });
  worker.unref();
  let warnedAt = 0;
  worker.on('message', (msg: unknown) => {
    if (typeof msg === 'object' && msg !== null && 'error' in msg) onError(String(msg.error));
    if (
      typeof msg === 'object' &&
      msg !== null &&
      'busy' in msg &&
      Date.now() - warnedAt > 60_000
    ) {
      warnedAt = Date.now();
      const mib = Math.round((Number(msg.busy) * 4096) / 2 ** 20);
      process.emitWarning(`SQLite's WAL is ${mib} MiB: a long reader kept it from being truncated`);
    }
  });
  worker.on('error', (err) => onError(err.message));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('exit', done);
        worker.once('message', (msg) => {
          if (msg === 'stopped') void worker.terminate().then(done, done);
        });
        worker.postMessage('stop');
        // A worker stuck in a long checkpoint must not hold shutdown.
        setTimeout(() => void worker.terminate().then(done, done), 5000).unref();
      }),
  };
}
