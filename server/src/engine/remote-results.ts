import type { ResultWrite } from '../db/repositories/results.js';
import type { IpcLink, IpcReply } from '../lib/ipc-bridge.js';
import type { Logger } from '../lib/logger.js';
import { DEFAULT_MAX_QUEUE, type ResultWriter } from './result-writer.js';

/** Where the scheduler puts its results: written here, or handed to the machine's writer. */
export interface ResultSink {
  enqueue(write: ResultWrite): void;
  /** Resolves once everything enqueued so far is committed. */
  flush(): Promise<void>;
  readonly pending: number;
}

export interface RemoteResultOptions {
  maxBatch?: number;
  flushMs?: number;
  /** Results held here or sent and not yet acknowledged before plain ones are dropped. */
  maxQueue?: number;
  /** Batches sent and not yet acknowledged; the rest wait here. */
  window?: number;
  onDrop?: () => void;
}

/**
 * A scheduler worker's results on SQLite (ADR 25): sent to the primary, which writes them
 * with its own. SQLite has one writer at a time, and better-sqlite3 waits for the lock
 * synchronously: two processes committing result batches blocked each other's event loops,
 * starved each other past the busy timeout and tripled the CPU per check. One writer per
 * machine commits them instead; the worker only runs checks.
 */
export class RemoteResultWriter implements ResultSink {
  private batch: ResultWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  /** Sent batches not yet committed by the primary, by sequence number. */
  private readonly unacked = new Map<number, { size: number; done: () => void }>();
  private readonly waiters = new Map<number, Promise<void>>();
  private inFlightWrites = 0;
  private dropped = 0;
  private readonly maxBatch: number;
  private readonly flushMs: number;
  private readonly maxQueue: number;
  private readonly window: number;

  constructor(
    private readonly link: IpcLink,
    private readonly logger: Logger,
    private readonly options: RemoteResultOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.flushMs = options.flushMs ?? 50;
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.window = options.window ?? 2;
    link.onMessage((message) => {
      if (message.pw !== 'results-written') return;
      const sent = this.unacked.get(message.seq);
      if (!sent) return;
      this.unacked.delete(message.seq);
      this.inFlightWrites -= sent.size;
      sent.done();
      // The primary caught up with one batch: the next may go.
      if (this.batch.length >= this.maxBatch || this.flushing) this.send();
      else if (this.batch.length > 0) this.timer ??= setTimeout(() => this.send(), this.flushMs);
    });
    // The primary is gone: nothing will be written or acknowledged, so a drain must not wait.
    link.onClose?.(() => {
      this.closed = true;
      if (this.unacked.size > 0) {
        logger.warn(
          { results: this.inFlightWrites },
          'the primary went away before writing these results',
        );
      }
      for (const sent of this.unacked.values()) sent.done();
      this.unacked.clear();
      this.inFlightWrites = 0;
    });
  }

  private closed = false;
  /** A flush is waiting: send what is here as soon as the window allows, not on the timer. */
  private flushing = 0;

  get pending(): number {
    return this.batch.length + this.inFlightWrites;
  }

  enqueue(write: ResultWrite): void {
    if (this.pending >= this.maxQueue) this.dropOne();
    this.batch.push(write);
    if (this.batch.length >= this.maxBatch && this.unacked.size < this.window) this.send();
    else this.timer ??= setTimeout(() => this.send(), this.flushMs);
  }

  async flush(): Promise<void> {
    this.flushing += 1;
    try {
      // What is here now goes out in the next batches, as the window opens.
      const last = this.seq + Math.ceil(this.batch.length / this.maxBatch);
      while (!this.closed) {
        this.send();
        const ahead = [...this.waiters].filter(([seq]) => seq <= last).map(([, w]) => w);
        if (ahead.length === 0 && (this.seq >= last || this.batch.length === 0)) return;
        await Promise.race(ahead.length > 0 ? ahead : [...this.waiters.values()]);
      }
    } finally {
      this.flushing -= 1;
    }
  }

  /** The primary is not keeping up: lose the oldest plain result still here, never a flip. */
  private dropOne(): void {
    const index = this.batch.findIndex((w) => w.flip === null);
    if (index === -1) return;
    this.batch.splice(index, 1);
    this.options.onDrop?.();
    if (this.dropped++ % 1000 === 0) {
      this.logger.warn(
        { dropped: this.dropped, unacknowledged: this.inFlightWrites },
        'results not yet written by the primary: dropping the oldest',
      );
    }
  }

  /**
   * Sends up to a batch while fewer than `window` batches await their acknowledgement. The
   * window keeps the IPC channel short: behind a backlog of result batches the worker's turn
   * requests (its lease renewals) would wait too, and it would fence itself.
   */
  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.batch.length > 0 && !this.closed && this.unacked.size < this.window) {
      this.sendOne(this.batch.splice(0, this.maxBatch));
    }
  }

  private sendOne(writes: ResultWrite[]): void {
    const seq = ++this.seq;
    this.inFlightWrites += writes.length;
    this.waiters.set(
      seq,
      new Promise<void>((resolve) => {
        this.unacked.set(seq, {
          size: writes.length,
          done: () => {
            this.waiters.delete(seq);
            resolve();
          },
        });
      }),
    );
    this.link.send({ pw: 'results', seq, writes });
  }
}

/**
 * The primary's side: results from its workers go into its own writer, and each batch is
 * acknowledged once committed (a worker's drain waits for that before it lets a partition go).
 */
export function writeWorkerResults(link: IpcLink, writer: ResultWriter): void {
  link.onMessage((message, reply?: IpcReply) => {
    if (message.pw !== 'results' || !reply) return;
    for (const write of message.writes as ResultWrite[]) writer.enqueue(write);
    void writer.flush().then(() => reply({ pw: 'results-written', seq: message.seq }));
  });
}
