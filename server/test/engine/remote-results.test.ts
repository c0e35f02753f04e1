import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { RemoteResultWriter, writeWorkerResults } from '../../src/engine/remote-results.js';
import { ResultWriter } from '../../src/engine/result-writer.js';
import type { IpcLink, IpcMessage, IpcReply } from '../../src/lib/ipc-bridge.js';
import { openTestDatabase } from '../support/engines.js';
import { checkRun, monitorInput } from '../support/factories.js';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const silent = pino({ level: 'silent' });

/**
 * A channel between a worker and its primary with what `fork` gives: messages are copied
 * (structured clone) and arrive on a later turn of the event loop, in order.
 */
function channel() {
  const toPrimary: ((m: IpcMessage, reply?: IpcReply) => void)[] = [];
  const toWorker: ((m: IpcMessage) => void)[] = [];
  const closers: (() => void)[] = [];
  let open = true;
  const deliver = <A extends unknown[]>(ls: ((...a: A) => void)[], ...args: A) =>
    setImmediate(() => {
      if (open) for (const l of ls) l(...args);
    });
  const worker: IpcLink = {
    send: (m) =>
      deliver(toPrimary, structuredClone(m), (r: IpcMessage) =>
        deliver(toWorker, structuredClone(r)),
      ),
    onMessage: (l) => void toWorker.push(l),
    onClose: (l) => void closers.push(l),
  };
  const primary: IpcLink = {
    send: (m) => deliver(toWorker, structuredClone(m)),
    onMessage: (l) => void toPrimary.push(l),
  };
  const close = () => {
    open = false;
    for (const l of closers) l();
  };
  return { worker, primary, close };
}

const write = (monitorId: number, i: number): ResultWrite => ({
  monitorId,
  at: T0 + i * 1000,
  run: checkRun(),
  status: 'up',
  failures: 0,
  recent: [],
  flip: null,
});

describe('a scheduler worker hands its results to the primary (SQLite, ADR 25)', () => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let repos: Repositories;
  let monitorId: number;

  beforeAll(async () => {
    handle = await openTestDatabase('sqlite');
    repos = repositories(handle.database);
    monitorId = (await repos.monitors.insert(monitorInput(), T0)).id;
  });
  afterAll(async () => handle.cleanup());

  const stored = async () =>
    (
      await handle.database.db
        .selectFrom('check_results')
        .select('at')
        .where('monitor_id', '=', monitorId)
        .orderBy('at')
        .execute()
    ).map((r) => Number(r.at) - T0);

  it('the primary writes them with its own and publishes them; a flush resolves once they are committed', async () => {
    const { worker, primary } = channel();
    const published: number[] = [];
    const writer = new ResultWriter(
      repos.results,
      (written) => published.push(...written.map((w) => w.write.at - T0)),
      silent,
    );
    writeWorkerResults(primary, writer);
    const remote = new RemoteResultWriter(worker, silent, { maxBatch: 3, flushMs: 10_000 });
    for (let i = 0; i < 7; i++) remote.enqueue(write(monitorId, i));
    // Two full batches are on their way; the seventh waits for the timer or a flush.
    expect(remote.pending).toBe(7);
    await remote.flush();
    expect(remote.pending).toBe(0);
    expect(await stored()).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000]);
    expect(published).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000]);
  });

  it('keeps at most `window` batches unacknowledged, so the channel stays short for turn requests', async () => {
    const { worker, primary } = channel();
    const writer = new ResultWriter(repos.results, () => undefined, silent);
    let inFlight = 0;
    let most = 0;
    // Counts the batches between their sending and their acknowledgement.
    const counted: IpcLink = {
      ...worker,
      send: (m) => {
        if (m.pw === 'results') most = Math.max(most, ++inFlight);
        worker.send(m);
      },
    };
    worker.onMessage((m) => void (m.pw === 'results-written' && inFlight--));
    writeWorkerResults(primary, writer);
    const remote = new RemoteResultWriter(counted, silent, {
      maxBatch: 2,
      flushMs: 10_000,
      window: 1,
    });
    for (let i = 0; i < 9; i++) remote.enqueue(write(monitorId, 200 + i));
    // One batch is out; the other seven results wait here for its acknowledgement.
    expect(most).toBe(1);
    expect(remote.pending).toBe(9);
    await remote.flush();
    expect(remote.pending).toBe(0);
    expect(most).toBe(1);
    expect((await stored()).filter((at) => at >= 200_000)).toEqual(
      Array.from({ length: 9 }, (_, i) => (200 + i) * 1000),
    );
  });

  it('a flush does not wait for a primary that went away', async () => {
    const { worker, close } = channel();
    // Nobody on the other side writes: the results stay unacknowledged until the channel closes.
    const remote = new RemoteResultWriter(worker, silent);
    remote.enqueue(write(monitorId, 100));
    const flushed = remote.flush();
    let done = false;
    void flushed.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    close();
    await flushed;
    expect(remote.pending).toBe(0);
  });
});
