import type { ResultWrite, ResultsRepository, InsertedResult } from '../db/repositories/results.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../lib/logger.js';
import { asBulkWrites } from '../db/write-turns.js';

export interface ResultWriterOptions {
  maxBatch?: number;
  flushMs?: number;
  /** Results held in memory before the oldest are dropped with a warning. */
  maxQueue?: number;
  /** Called for every result dropped because the queue was full. */
  onDrop?: () => void;
  /** Called with how many results were duplicates of rounds already recorded (another process's). */
  onDuplicate?: (count: number) => void;
}

/**
 * Results held while the database is slower than the checks (about 2.5 minutes of 10,000
 * monitors at 60 s): enough to ride out a vacuum or a lock, small enough (≈ 1.5 KB each with
 * the sparkline) that memory stays bounded if the database never comes back.
 */
export const DEFAULT_MAX_QUEUE = 25_000;

/**
 * Buffers check results and writes them in transactions of up to `maxBatch`:
 * a thousand results a second cost a few commits, not a thousand fsyncs.
 */
export class ResultWriter {
  private queue: ResultWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private readonly maxBatch: number;
  private readonly flushMs: number;
  private readonly maxQueue: number;

  constructor(
    private readonly results: ResultsRepository,
    private readonly onWritten: (written: InsertedResult[]) => void,
    private readonly logger: Logger,
    options: ResultWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.flushMs = options.flushMs ?? 50;
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.onDrop = options.onDrop;
    this.onDuplicate = options.onDuplicate;
  }

  private readonly onDrop: (() => void) | undefined;
  private readonly onDuplicate: ((count: number) => void) | undefined;

  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues a result; never waits, so checks keep their schedule however slow the database is.
   * When the queue is full the oldest result that changed no status is dropped (a later write
   * of the same monitor carries its state); flips are kept because incidents hang on them.
   */
  enqueue(write: ResultWrite): void {
    if (this.queue.length >= this.maxQueue) this.dropOne();
    this.queue.push(write);
    if (this.queue.length >= this.maxBatch) this.schedule(0);
    else this.schedule(this.flushMs);
  }

  get droppedTotal(): number {
    return this.dropped;
  }

  private dropOne(): void {
    const index = this.queue.findIndex((w) => w.flip === null);
    this.queue.splice(index === -1 ? 0 : index, 1);
    this.onDrop?.();
    if (this.dropped++ % 1000 === 0) {
      this.logger.warn(
        { dropped: this.dropped, queued: this.queue.length },
        'result queue full: the database is not keeping up; dropping the oldest results',
      );
    }
  }

  /** Writes everything queued so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  private schedule(ms: number): void {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      // SQLite writes are synchronous: let due checks start between batches of a backlog.
      await yieldToLoop();
      try {
        this.written(batch.length, await asBulkWrites(() => this.results.writeBatch(batch)));
      } catch (err) {
        // One bad row (e.g. its monitor was just deleted) must not sink the batch.
        this.logger.warn(
          { err, size: batch.length },
          'batched result write failed; writing one by one',
        );
        for (const write of batch) await this.writeAlone(write);
      }
    }
  }

  /** A write the repository left out was a duplicate: a missing monitor throws instead. */
  private written(sent: number, written: InsertedResult[]): void {
    if (written.length < sent) this.onDuplicate?.(sent - written.length);
    this.onWritten(written);
  }

  private async writeAlone(write: ResultWrite): Promise<void> {
    try {
      this.written(1, await asBulkWrites(() => this.results.writeBatch([write])));
    } catch (err) {
      this.logger.debug({ err, monitorId: write.monitorId }, 'dropped result of a missing monitor');
    }
  }
}
