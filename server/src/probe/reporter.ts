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
      if (err instanceof ProbeHttpError && err.status === 400) {
        const bad = refusedItems(err.problem?.errors ?? [], items.length);
        const rest = items.filter((_, i) => !bad.has(i));
        this.refusedCount += bad.size;
        this.log(
          `warning: the server refused ${bad.size} of ${items.length} results: ${err.message}`,
        );
        return rest.length === 0 ? true : this.send(rest, replayed);
      }
      this.online = false;
      return false;
    }
  }
}

/**
 * The indices of a refused batch's items the server named (`items.<i>…`). A refusal that names
 * no item, or anything but items, is the batch's own fault (malformed, oversized): all of it is
 * refused, since sending any of it again would only be refused again, forever.
 */
export function refusedItems(errors: readonly { path: string }[], count: number): Set<number> {
  const named = new Set<number>();
  for (const e of errors) {
    const m = /^items\.(\d+)(?:\.|$)/.exec(e.path);
    const i = m ? Number(m[1]) : NaN;
    if (!(i >= 0 && i < count)) return new Set(Array.from({ length: count }, (_, k) => k));
    named.add(i);
  }
  return named.size > 0 ? named : new Set(Array.from({ length: count }, (_, k) => k));
}
