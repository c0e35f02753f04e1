import type { ProbeResultAnswer, ProbeResultItem } from '@pagewatch/contract';
import { ProbeHttpError, type ProbeClient } from './client.js';
import type { ProbeClock } from './clock.js';
import type { Spool } from './spool.js';

const BATCH = 500;

/**
 * Sends results in batches; what cannot be sent (cut off, server away) goes to the spool and
 * is sent again as replayed once a batch gets through. A batch the server refuses names the
 * refused items: they are dropped (and counted), the rest sent again.
 */
export class Reporter {
  private queue: ProbeResultItem[] = [];
  private sending = false;
  private refusedCount = 0;
  online = false;

  constructor(
    private readonly client: ProbeClient,
    private readonly clock: ProbeClock,
    private readonly spool: Spool,
    private readonly log: (text: string) => void,
  ) {}

  add(item: ProbeResultItem): void {
    this.queue.push(item);
  }

  refused(): number {
    return this.refusedCount;
  }

  /** Sends what is queued, then the spool's oldest batches while the server answers. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const items = this.queue.splice(0, BATCH);
        if (!this.online || !(await this.send(items, false))) {
          this.spool.append(items, this.clock.local());
        }
      }
      while (this.online) {
        const next = this.spool.oldest();
        if (!next) break;
        if (!(await this.send(next.items, true))) break;
        this.spool.remove(next.file);
      }
    } finally {
      this.sending = false;
    }
  }

  /** True once the server took the batch (recorded, or refused for good). */
  private async send(items: ProbeResultItem[], replayed: boolean): Promise<boolean> {
    try {
      const answer = await this.client.post('results', { replayed, items });
      this.clock.observe(
        (answer.body as ProbeResultAnswer).serverTime,
        answer.sentAt,
        answer.readAt,
      );
      return true;
    } catch (err) {
      if (err instanceof ProbeHttpError && err.status === 400 && err.problem?.errors) {
        const bad = new Set(err.problem.errors.map((e) => Number(e.path.split('.')[1])));
        this.refusedCount += bad.size;
        this.log(`warning: the server refused ${bad.size} results: ${err.message}`);
        const rest = items.filter((_, i) => !bad.has(i));
        return rest.length === 0 || bad.size === 0 ? true : this.send(rest, replayed);
      }
      this.online = false;
      return false;
    }
  }
}
