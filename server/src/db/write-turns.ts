import { AsyncLocalStorage } from 'node:async_hooks';
import type { IpcLink, IpcReply } from '../lib/ipc-bridge.js';

const bulk = new AsyncLocalStorage<true>();

/**
 * Runs `work` (the result writer's batches) as bulk writing: its turns come after every other
 * write waiting, so lease renewals, a worker's included, never queue behind a backlog of
 * results. Only the primary's queue tells the two apart; elsewhere this just runs `work`.
 */
export function asBulkWrites<T>(work: () => Promise<T>): Promise<T> {
  return bulk.run(true, work);
}

/** Gives out SQLite's write lock in turns across the processes of one machine (ADR 25). */
export interface WriteTurns {
  /** Resolves when it is this caller's turn; call the returned function when done. */
  acquire(): Promise<() => void>;
}

/**
 * A remote holder that has not handed its turn back within this is passed over (it may be
 * frozen or gone). SQLite's own locks still keep the data safe then: turns only spare the
 * processes from meeting at the lock, where better-sqlite3 waits with the event loop blocked.
 */
const REMOTE_HOLD_MS = 2_000;

/**
 * The primary's turns: its own transactions and its workers' writes, first come first served,
 * except that the result writer's batches (`asBulkWrites`) wait until no other write does.
 * Without them the primary's back-to-back result batches starved a worker's lease renewal past
 * its safe margin (SQLite's busy handler retries at growing intervals and kept missing the
 * moment between two batches), and the worker fenced itself.
 */
export class TurnQueue implements WriteTurns {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private readonly waitingBulk: (() => void)[] = [];

  acquire(): Promise<() => void> {
    const queue = bulk.getStore() ? this.waitingBulk : this.waiting;
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.next();
        });
      };
      if (this.held) queue.push(grant);
      else grant();
    });
  }

  /** Serves the workers' asks for a turn over their IPC link. */
  serve(link: IpcLink): void {
    // Each worker numbers its own asks: a turn is known by who asked (its reply) and the number.
    const holders = new Map<
      IpcReply,
      Map<number, { release: () => void; timer: NodeJS.Timeout }>
    >();
    link.onMessage((message, reply?: IpcReply) => {
      if (!reply) return;
      if (message.pw === 'turn-ask') {
        void this.acquire().then((release) => {
          const timer = setTimeout(() => {
            holders.get(reply)?.delete(message.id);
            release();
          }, REMOTE_HOLD_MS);
          let mine = holders.get(reply);
          if (!mine) holders.set(reply, (mine = new Map()));
          mine.set(message.id, { release, timer });
          reply({ pw: 'turn-granted', id: message.id });
        });
      } else if (message.pw === 'turn-done') {
        const holder = holders.get(reply)?.get(message.id);
        if (!holder) return;
        holders.get(reply)?.delete(message.id);
        clearTimeout(holder.timer);
        holder.release();
      }
    });
  }

  private next(): void {
    const grant = this.waiting.shift() ?? this.waitingBulk.shift();
    if (grant) grant();
    else this.held = false;
  }
}

/**
 * How long a worker waits for its turn before it goes to SQLite's lock without one. The
 * primary gives turns out on its event loop; while that loop is busy (a collection of a large
 * heap, a burst of results) a grant took 1–3 s to arrive, and a lease renewal waiting for it
 * fenced the worker. A worker's writes are single short statements: waiting at the lock for
 * the primary's current transaction (tens of milliseconds) costs less than that.
 */
export const TURN_PATIENCE_MS = 500;

/** A worker's turns: asked of the primary over IPC. */
export function turnsFromPrimary(link: IpcLink, patienceMs = TURN_PATIENCE_MS): WriteTurns {
  let nextId = 0;
  const granted = new Map<number, () => void>();
  link.onMessage((message) => {
    if (message.pw !== 'turn-granted') return;
    const go = granted.get(message.id);
    granted.delete(message.id);
    // A grant that came after this worker stopped waiting is handed straight back.
    if (go) go();
    else link.send({ pw: 'turn-done', id: message.id });
  });
  // The primary is gone: nobody gives turns any more, and SQLite's locks alone decide.
  let closed = false;
  link.onClose?.(() => {
    closed = true;
    for (const go of granted.values()) go();
    granted.clear();
  });
  return {
    acquire: () => {
      if (closed) return Promise.resolve(() => {});
      const id = (nextId += 1);
      return new Promise((resolve) => {
        const impatient = setTimeout(() => {
          granted.delete(id);
          resolve(() => {});
        }, patienceMs);
        granted.set(id, () => {
          clearTimeout(impatient);
          resolve(() => {
            if (!closed) link.send({ pw: 'turn-done', id });
          });
        });
        link.send({ pw: 'turn-ask', id });
      });
    },
  };
}
