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
  /**
   * Batches written at once (default: what the repository says its engine can take). Batches
   * in flight together never share a monitor, so each monitor's results still commit in the
   * order they came and the round guard never sees a newer round before an older one.
   */
  lanes?: number;
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
  /** Lanes writing now, and who waits for them all to finish. */
  private active = 0;
  private readonly idle: (() => void)[] = [];
  private dropped = 0;
  private readonly maxBatch: number;
  private readonly flushMs: number;
  private readonly maxQueue: number;
  private readonly lanes: number;
  /** The monitors of the batches being written now. */
  private readonly writing = new Set<number>();

  constructor(
    private readonly results: ResultsRepository,
    private readonly onWritten: (written: InsertedResult[]) => void,
    private readonly logger: Logger,
    options: ResultWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.flushMs = options.flushMs ?? 50;
    this.maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.lanes = Math.max(1, options.lanes ?? results.parallelBatches);
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

  /**
   * Writes everything queued so far; resolves when it is committed. Starts lanes up to
   * `lanes`; each keeps writing batches while there are writes it may take.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.active < this.lanes) {
      const batch = this.takeBatch();
      if (batch.length === 0) break;
      this.active += 1;
      void this.lane(batch).finally(() => {
        this.active -= 1;
        if (this.active === 0) for (const done of this.idle.splice(0)) done();
      });
    }
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(ms: number): void {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  /** Writes `batch`, then the next ones while there are writes no other lane holds back. */
  private async lane(first: ResultWrite[]): Promise<void> {
    for (let batch = first; batch.length > 0; batch = this.takeBatch()) {
      for (const w of batch) this.writing.add(w.monitorId);
      try {
        // SQLite writes are synchronous: let due checks start between batches of a backlog.
        await yieldToLoop();
        await this.write(batch);
      } finally {
        for (const w of batch) this.writing.delete(w.monitorId);
      }
    }
  }

  /**
   * The next batch: the oldest writes of monitors no other lane is writing. A monitor passed
   * over (it is being written) holds back its later writes too, so its order is kept.
   */
  private takeBatch(): ResultWrite[] {
    if (this.writing.size === 0) return this.queue.splice(0, this.maxBatch);
    const batch: ResultWrite[] = [];
    const held: ResultWrite[] = [];
    const heldBack = new Set<number>();
    let i = 0;
    for (; i < this.queue.length && batch.length < this.maxBatch; i += 1) {
      const w = this.queue[i]!;
      if (this.writing.has(w.monitorId) || heldBack.has(w.monitorId)) {
        heldBack.add(w.monitorId);
        held.push(w);
      } else {
        batch.push(w);
      }
    }
    if (batch.length > 0) this.queue = held.concat(this.queue.slice(i));
    return batch;
  }

  private async write(batch: ResultWrite[]): Promise<void> {
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
