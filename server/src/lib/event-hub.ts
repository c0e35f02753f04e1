import { randomBytes } from 'node:crypto';
import type { ServerEvent } from '@pagewatch/contract';

export interface HubEvent {
  id: string;
  event: ServerEvent;
}

type Listener = (e: HubEvent) => void;

/**
 * In-process fan-out of live events with a short replay ring, so an SSE client
 * that reconnects with Last-Event-ID misses nothing. Ids carry a boot id: an id
 * from before a restart cannot be replayed and yields a `reset`.
 */
export class EventHub {
  readonly bootId = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly ring: HubEvent[] = [];
  private readonly listeners = new Set<Listener>();

  constructor(private readonly keep = 2000) {}

  publish(event: ServerEvent): void {
    const e = { id: `${this.bootId}-${++this.seq}`, event };
    this.ring.push(e);
    if (this.ring.length > this.keep) this.ring.splice(0, this.ring.length - this.keep);
    for (const l of this.listeners) l(e);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Events after `lastId`, or null when they can no longer be replayed. */
  since(lastId: string): HubEvent[] | null {
    const [boot, n] = lastId.split('-');
    const seq = Number(n);
    if (boot !== this.bootId || !Number.isInteger(seq) || seq > this.seq) return null;
    const oldest = this.ring[0] ? Number(this.ring[0].id.split('-')[1]) : this.seq + 1;
    if (seq < oldest - 1) return null;
    return this.ring.filter((e) => Number(e.id.split('-')[1]) > seq);
  }
}
