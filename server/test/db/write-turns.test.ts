import { describe, expect, it } from 'vitest';
import { asBulkWrites, TurnQueue, turnsFromPrimary } from '../../src/db/write-turns.js';
import type { IpcLink, IpcMessage, IpcReply } from '../../src/lib/ipc-bridge.js';

/** A worker's link to its primary as `fork` gives it: copied messages, delivered later, in order. */
function channel() {
  const toPrimary: ((m: IpcMessage, reply?: IpcReply) => void)[] = [];
  const toWorker: ((m: IpcMessage) => void)[] = [];
  const later = (f: () => void) => setImmediate(f);
  const reply: IpcReply = (m) => later(() => toWorker.forEach((l) => l(structuredClone(m))));
  const worker: IpcLink = {
    send: (m) => later(() => toPrimary.forEach((l) => l(structuredClone(m), reply))),
    onMessage: (l) => void toWorker.push(l),
  };
  const primary: IpcLink = { send: () => {}, onMessage: (l) => void toPrimary.push(l) };
  return { worker, primary };
}

describe('turns at SQLite’s write lock across a machine’s processes', () => {
  it('gives them first come, first served, to the primary and its worker alike', async () => {
    const queue = new TurnQueue();
    const { worker, primary } = channel();
    queue.serve(primary);
    const remote = turnsFromPrimary(worker);
    const order: string[] = [];
    const first = await queue.acquire();
    order.push('primary 1');
    const workerTurn = remote.acquire().then((release) => {
      order.push('worker');
      return release;
    });
    // The worker's ask reaches the primary before its own second one.
    await new Promise((r) => setTimeout(r, 20));
    const second = queue.acquire().then((release) => {
      order.push('primary 2');
      return release;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['primary 1']);
    first();
    (await workerTurn)();
    (await second)();
    expect(order).toEqual(['primary 1', 'worker', 'primary 2']);
  });

  it('serves every other write before the result writer’s bulk batches', async () => {
    const queue = new TurnQueue();
    const { worker, primary } = channel();
    queue.serve(primary);
    const order: string[] = [];
    const first = await queue.acquire();
    const batch = asBulkWrites(() =>
      queue.acquire().then((release) => {
        order.push('results batch');
        return release;
      }),
    );
    const renewal = turnsFromPrimary(worker)
      .acquire()
      .then((release) => {
        order.push("worker's renewal");
        return release;
      });
    await new Promise((r) => setTimeout(r, 20));
    first();
    (await renewal)();
    (await batch)();
    expect(order).toEqual(["worker's renewal", 'results batch']);
  });

  it('passes over a worker that keeps its turn too long (frozen or gone)', async () => {
    const queue = new TurnQueue();
    const { worker, primary } = channel();
    queue.serve(primary);
    await turnsFromPrimary(worker).acquire(); // never released
    const started = Date.now();
    const release = await queue.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    release();
  });

  it('a worker whose grant is late goes ahead without it, and hands the late turn straight back', async () => {
    const queue = new TurnQueue();
    const { worker, primary } = channel();
    queue.serve(primary);
    // The primary's own transaction holds the turn past the worker's patience (a busy loop).
    const primaryTurn = await queue.acquire();
    const started = Date.now();
    const release = await turnsFromPrimary(worker, 100).acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
    // The worker's ask is still queued: when granted it is handed back at once, so the
    // primary's next write does not wait out the 2 s a holder is allowed.
    primaryTurn();
    await new Promise((r) => setTimeout(r, 50));
    const next = Date.now();
    (await queue.acquire())();
    expect(Date.now() - next).toBeLessThan(500);
  });
});
