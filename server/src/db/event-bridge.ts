import { randomBytes } from 'node:crypto';
import type { ServerEvent } from '@pagewatch/contract';
import { sql } from 'kysely';
import type pg from 'pg';
import type { CredentialRevocations, Revocation } from '../lib/credential-revocations.js';
import type { EventHub } from '../lib/event-hub.js';
import type { Logger } from '../lib/logger.js';
import type { Database } from './database.js';

/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD = 7_900;
const FLUSH_MS = 20;
const RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

export interface EventBridgeOptions {
  url: string;
  /** Processes share events only within one schema (tests run many side by side). */
  schema?: string;
  hub: EventHub;
  /** Sent at once, unbatched: another process's open streams must end within a second. */
  revocations?: CredentialRevocations;
  database: Database;
  logger: Logger;
  /**
   * Whether this process hears other processes' check results (default true). They go on a
   * channel of their own: a scheduler-only process has no use for a thousand a second.
   */
  results?: boolean;
  /** Counts by `what`: sent, received, dropped, reconnects (Prometheus). */
  counter?: {
    inc(labels: { what: 'sent' | 'received' | 'dropped' | 'reconnects' }, value?: number): void;
  };
}

export interface EventBridge {
  /** Other processes' events received, and this one's sent (for tests and metrics). */
  readonly stats: { received: number; sent: number; dropped: number; reconnects: number };
  /** Tells the other processes' cluster members to renew now: one joined, left or released. */
  wakeCluster(): void;
  /** Called when another process asks for that (ADR 21); polling remains the backstop. */
  onClusterWake(listener: () => void): void;
  /** Tells the schedulers a request was handed over to them in `check_requests` (ADR 24). */
  wakeRequests(): void;
  /** Called when another process handed a request over; polling remains the backstop. */
  onRequestsWake(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * What crosses: a result's check details (certificate, assertions) can be large and stay home.
 * They are left out, not set to null: null says "this check had none" and would take the
 * certificate panel off an open monitor page; absent says "not carried", and the page reads
 * the monitor again to show the latest check's (issue 17).
 */
function lean(event: ServerEvent): ServerEvent {
  if (event.kind !== 'result' || event.details === undefined) return event;
  const { details: _home, ...rest } = event;
  return rest;
}

/** Groups events into NOTIFY payloads under the size limit; ones too big alone are dropped. */
export function packEvents(
  origin: string,
  events: readonly ServerEvent[],
): { batches: { payload: string; events: number }[]; dropped: number } {
  const head = `{"o":"${origin}","e":[`;
  const batches: { payload: string; events: number }[] = [];
  let dropped = 0;
  let parts: string[] = [];
  let size = head.length + 2;
  for (const event of events) {
    const part = JSON.stringify(lean(event));
    const bytes = Buffer.byteLength(part) + 1;
    if (head.length + 2 + bytes > MAX_PAYLOAD) {
      dropped += 1;
      continue;
    }
    if (size + bytes > MAX_PAYLOAD) {
      batches.push({ payload: `${head}${parts.join(',')}]}`, events: parts.length });
      parts = [];
      size = head.length + 2;
    }
    parts.push(part);
    size += bytes;
  }
  if (parts.length > 0)
    batches.push({ payload: `${head}${parts.join(',')}]}`, events: parts.length });
  return { batches, dropped };
}

/**
 * Shares live events between processes on one PostgreSQL database (ADR 4): flips seen by a
 * scheduler process reach the web processes' event streams and status page caches. Events
 * are batched every 20 ms into NOTIFY payloads on a channel per schema; a dedicated
 * connection LISTENs and republishes other processes' events into this process's hub.
 */
export async function bridgeEvents(options: EventBridgeOptions): Promise<EventBridge> {
  const { default: pgModule } = await import('pg');
  const origin = randomBytes(6).toString('hex');
  const suffix = options.schema
    ? `_${options.schema.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`
    : '';
  const channel = `pagewatch_events${suffix}`.slice(0, 63);
  const resultsChannel = `pagewatch_results${suffix}`.slice(0, 63);
  const hearsResults = options.results ?? true;
  const remote = new WeakSet<ServerEvent | Revocation>();
  const stats = { received: 0, sent: 0, dropped: 0, reconnects: 0 };
  const count = (what: keyof typeof stats, n = 1) => {
    if (n === 0) return;
    stats[what] += n;
    options.counter?.inc({ what }, n);
  };
  let queue: ServerEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> = Promise.resolve();
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | null = null;
  const wakeListeners: (() => void)[] = [];
  const requestListeners: (() => void)[] = [];

  const receive = (message: pg.Notification) => {
    if ((message.channel !== channel && message.channel !== resultsChannel) || !message.payload)
      return;
    try {
      const batch = JSON.parse(message.payload) as {
        o: string;
        e?: ServerEvent[];
        r?: Revocation;
        w?: number;
        q?: number;
      };
      if (batch.o === origin) return;
      if (batch.w) for (const listener of wakeListeners) listener();
      if (batch.q) for (const listener of requestListeners) listener();
      if (batch.r && Number.isInteger(batch.r.userId)) {
        const r = { userId: batch.r.userId };
        remote.add(r);
        options.revocations?.publish(r);
      }
      for (const event of batch.e ?? []) {
        remote.add(event);
        count('received');
        options.hub.publish(event);
      }
    } catch (err) {
      options.logger.warn({ err }, 'ignored a malformed shared event');
    }
  };

  async function listen(): Promise<void> {
    const c = new pgModule.Client({ connectionString: options.url });
    c.on('notification', receive);
    c.on('error', (err) => {
      options.logger.warn({ err }, 'the shared event feed lost its connection; reconnecting');
      void c.end().catch(() => {});
      if (client === c) client = null;
      schedule();
    });
    c.on('end', () => {
      if (client !== c || closed) return;
      client = null;
      schedule();
    });
    await c.connect();
    const channels = hearsResults ? [channel, resultsChannel] : [channel];
    await c.query(channels.map((name) => `LISTEN "${name}"`).join('; '));
    // Closed while reconnecting: this connection is nobody's.
    if (closed) return void (await c.end());
    client = c;
    attempt = 0;
  }

  function schedule(): void {
    if (closed || retry) return;
    const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 30_000;
    attempt += 1;
    count('reconnects');
    retry = setTimeout(() => {
      retry = null;
      listen().catch((err: unknown) => {
        options.logger.warn({ err }, 'could not reconnect the shared event feed');
        schedule();
      });
    }, delay);
  }

  async function notify(payload: string, on = channel): Promise<boolean> {
    try {
      await sql`select pg_notify(${on}, ${payload})`.execute(options.database.db);
      return true;
    } catch (err) {
      // The other processes' caches still expire by age; live views miss these events.
      options.logger.warn({ err }, 'could not share events with other processes');
      return false;
    }
  }

  async function flush(): Promise<void> {
    timer = null;
    const events = queue;
    queue = [];
    const results = events.filter((e) => e.kind === 'result');
    const others = events.filter((e) => e.kind !== 'result');
    for (const [on, list] of [
      [channel, others],
      [resultsChannel, results],
    ] as const) {
      const { batches, dropped } = packEvents(origin, list);
      count('dropped', dropped);
      for (const { payload, events: n } of batches) if (await notify(payload, on)) count('sent', n);
    }
  }

  await listen();
  const unsubscribe = options.hub.subscribe(({ event }) => {
    if (closed || remote.has(event) || event.kind === 'reset') return;
    queue.push(event);
    timer ??= setTimeout(() => {
      sending = sending.then(flush);
    }, FLUSH_MS);
  });
  const unsubscribeRevocations = options.revocations?.subscribe((r) => {
    if (closed || remote.has(r)) return;
    const payload = JSON.stringify({ o: origin, r: { userId: r.userId } });
    sending = sending.then(() => notify(payload).then(() => {}));
  });

  return {
    stats,
    wakeCluster() {
      if (closed) return;
      const payload = JSON.stringify({ o: origin, w: 1 });
      sending = sending.then(() => notify(payload).then(() => {}));
    },
    onClusterWake(listener) {
      wakeListeners.push(listener);
    },
    wakeRequests() {
      if (closed) return;
      const payload = JSON.stringify({ o: origin, q: 1 });
      sending = sending.then(() => notify(payload).then(() => {}));
    },
    onRequestsWake(listener) {
      requestListeners.push(listener);
    },
    async close() {
      closed = true;
      unsubscribe();
      unsubscribeRevocations?.();
      if (retry) clearTimeout(retry);
      if (timer) {
        clearTimeout(timer);
        sending = sending.then(flush);
      }
      await sending;
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
