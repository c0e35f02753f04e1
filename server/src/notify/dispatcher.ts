import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { deliveryPolicy, type ChannelKind } from '@pagewatch/contract';
import type {
  ClaimedDelivery,
  DeliveriesRepository,
  PendingDelivery,
  StoredChannel,
} from '../db/repositories/deliveries.js';
import { retryDelayMs, streamHeads, type DeliveryPolicy } from '../domain/alerting/index.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/crypto.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../lib/metrics.js';
import type { OutboxSignal } from '../lib/outbox-signal.js';
import { attemptDelivery, bounded, type AttemptOutcome } from './attempt.js';
import type { SubscriberSend } from './subscriber-sender.js';
import type { ContactSend } from './contact-sender.js';
import type { ChannelHealth } from './channel-health.js';
import type { Channel } from './channel.js';
import { channelRegistry } from './channels/registry.js';
import { ACK_LINK_TTL_MS, ackPath, signAckToken } from '../escalation/ack-link.js';

export interface DispatcherOptions {
  /** Time limit of one attempt. */
  timeoutMs: number;
  /** Attempts in flight at once, over all channels. */
  concurrency: number;
  /** Attempts in flight at once to one channel. */
  perChannel: number;
  /** How often the outbox is read for rows other processes queued (or retries fell due). */
  pollMs: number;
  publicUrl: string | null;
  /** Refuse loopback and private addresses too (link-local is always refused). */
  blockPrivate: boolean;
  policy: DeliveryPolicy;
  /** A claim lasts the timeout plus this, so a crashed worker's rows are taken over soon. */
  leaseMarginMs: number;
  /** Undelivered rows read per pass, oldest first. */
  scanLimit: number;
}

export const defaultDispatcherOptions: DispatcherOptions = {
  timeoutMs: 10_000,
  concurrency: 16,
  perChannel: 4,
  pollMs: 1000,
  publicUrl: null,
  blockPrivate: false,
  policy: deliveryPolicy,
  leaseMarginMs: 5000,
  scanLimit: 5000,
};

export interface DispatcherDeps {
  deliveries: DeliveriesRepository;
  outbox: OutboxSignal;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Channel implementations by kind; the registry by default. */
  channels?: Partial<Record<ChannelKind, Channel>>;
  /** Sends status-page subscriber notices (rows without a channel); absent: they fail. */
  subscribers?: SubscriberSend;
  /** Sends to people's contact methods (ADR 60); absent: those rows fail. */
  contacts?: ContactSend;
  /** Counts channels' failures in a row and routes to fallbacks (ADR 62); absent: neither. */
  health?: ChannelHealth;
}

/**
 * The notifier: sends the outbox at least once, in order per (channel, order key). Rows are
 * claimed with a compare-and-set lease, so any number of dispatchers share one database
 * without sending a delivery twice at the same time, and a crashed one's claims expire.
 */
export class Dispatcher {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly options: DispatcherOptions;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly perChannel = new Map<number, number>();
  private scanning: Promise<void> | null = null;
  private again = false;
  /** Stream heads from the last read not tried yet; the outbox is read again when it runs out. */
  private candidates: PendingDelivery[] = [];
  private reread = true;
  /** Channels as read within the last second: a burst to one channel reads it once. */
  private readonly channels = new Map<number, { at: number; row: Promise<StoredChannel | null> }>();
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe = () => {};
  private pendingSeen = 0;

  constructor(
    private readonly deps: DispatcherDeps,
    options: Partial<DispatcherOptions> = {},
  ) {
    this.options = { ...defaultDispatcherOptions, ...options };
    deps.metrics.probes.pendingDeliveries = () => this.pendingSeen;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.deps.outbox.subscribe(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.wake();
  }

  /** Stops claiming; attempts in flight end (they are bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.scanning;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Reads the outbox now (coalesced: one pass at a time, one more if woken meanwhile). */
  wake(): void {
    this.reread = true;
    this.run();
  }

  private run(): void {
    if (this.stopped) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = this.pass()
      .catch((err: unknown) => this.deps.logger.error({ err }, 'notifier: outbox pass failed'))
      .finally(() => {
        this.scanning = null;
        if (this.again) {
          this.again = false;
          this.run();
        }
      });
  }

  private async pass(): Promise<void> {
    const o = this.options;
    if (this.inFlight.size >= o.concurrency) return;
    if (this.reread || this.candidates.length === 0) {
      this.reread = false;
      const pending = await this.deps.deliveries.pending(o.scanLimit);
      this.pendingSeen = pending.length;
      this.candidates = streamHeads(pending);
    }
    const now = this.deps.clock.now();
    const kept: PendingDelivery[] = [];
    for (const head of this.candidates) {
      const channelFull = (this.perChannel.get(head.channelId) ?? 0) >= o.perChannel;
      if (this.stopped || this.inFlight.size >= o.concurrency || channelFull) {
        kept.push(head);
        continue;
      }
      // Not due, or someone else's: a later read sees it again when it may go.
      if (this.inFlight.has(head.id) || head.nextAttemptAt > now) continue;
      if (head.leaseUntil !== null && head.leaseUntil >= now) continue;
      const lease = now + o.timeoutMs + o.leaseMarginMs;
      const claimed = await this.deps.deliveries.claim(head.id, this.workerId, now, lease);
      if (claimed) this.launch(claimed);
    }
    this.candidates = kept;
  }

  private channel(id: number): Promise<StoredChannel | null> {
    const now = Date.now();
    const cached = this.channels.get(id);
    if (cached && now - cached.at < 1000) return cached.row;
    if (this.channels.size > 1000) this.channels.clear();
    const row = this.deps.deliveries.channel(id);
    this.channels.set(id, { at: now, row });
    return row;
  }

  private launch(d: ClaimedDelivery): void {
    this.perChannel.set(d.channelId, (this.perChannel.get(d.channelId) ?? 0) + 1);
    const done = this.deliver(d)
      .catch((err: unknown) =>
        this.deps.logger.error({ err, deliveryId: d.id }, 'notifier: delivery bookkeeping failed'),
      )
      .finally(() => {
        this.inFlight.delete(d.id);
        const n = (this.perChannel.get(d.channelId) ?? 1) - 1;
        if (n > 0) this.perChannel.set(d.channelId, n);
        else this.perChannel.delete(d.channelId);
        // This channel's waiting heads may go now (the stream's next row at the next read).
        this.run();
      });
    this.inFlight.set(d.id, done);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const { deliveries, clock, secrets, metrics } = this.deps;
    const o = this.options;
    const ctx = {
      publicUrl: o.publicUrl,
      timeoutMs: o.timeoutMs,
      deliveryId: d.id,
      idempotencyKey: d.idempotencyKey,
      blockPrivate: o.blockPrivate,
    };
    let outcome: AttemptOutcome;
    let kind: string;
    if (d.subscriberId !== null) {
      const send = this.deps.subscribers;
      const subscriberId = d.subscriberId;
      kind = 'subscriber';
      outcome = send
        ? await bounded((c) => send(subscriberId, d.payload, c), ctx)
        : { kind: 'failed', error: 'This process cannot send subscriber notices' };
    } else if (d.contactMethodId !== null) {
      const send = this.deps.contacts;
      const contactId = d.contactMethodId;
      const event = this.withAckLink(d);
      kind = 'contact';
      outcome = send
        ? await bounded((c) => send(contactId, event, c), ctx)
        : { kind: 'failed', error: 'This process cannot send to contact methods' };
    } else {
      const channel = await this.channel(d.channelId);
      kind = channel?.kind ?? 'unknown';
      const registry = this.deps.channels ?? channelRegistry;
      outcome = await attemptDelivery(channel, this.withAckLink(d), registry, secrets, ctx);
    }
    const labels = { channel: kind, event: d.event.kind };
    const attempts = d.attempts + 1;
    const now = clock.now();
    if (outcome.kind === 'sent') {
      const answered = performance.now();
      await deliveries.markSent(d.id, this.workerId, attempts, now);
      metrics.notificationUnrecorded.observe((performance.now() - answered) / 1000);
      metrics.notificationsSent.inc(labels);
      metrics.notificationDelay.observe(Math.max(0, now - d.createdAt) / 1000);
      await this.deps.health?.sent(d);
      return;
    }
    if (outcome.kind === 'retry' && attempts < o.policy.attempts) {
      const next = now + retryDelayMs(attempts, o.policy, outcome.retryAfterMs);
      await deliveries.markRetry(d.id, this.workerId, attempts, next, outcome.error);
      metrics.notificationsRetried.inc(labels);
      this.log(d, outcome, attempts, 'will retry');
      return;
    }
    await deliveries.markFailed(d.id, this.workerId, attempts, outcome.error);
    metrics.notificationsFailed.inc(labels);
    this.log(d, outcome, attempts, 'gave up');
    await this.deps.health?.failed(d, outcome.error);
  }

  /**
   * An escalated outage's message carries a signed link to acknowledge it (ADR 39), made per
   * channel at send time so no working link is stored in the outbox.
   */
  private withAckLink(d: ClaimedDelivery): ClaimedDelivery['event'] {
    const e = d.event;
    const publicUrl = this.options.publicUrl;
    if (!e.escalation || !publicUrl || e.kind === 'monitor.up') return e;
    const token = signAckToken(this.deps.secrets, {
      escalationId: e.escalation.id,
      channelId: d.channelId,
      ...(d.contactMethodId !== null ? { contactMethodId: d.contactMethodId } : {}),
      expiresAt: this.deps.clock.now() + ACK_LINK_TTL_MS,
    });
    return { ...e, escalation: { ...e.escalation, ackUrl: `${publicUrl}${ackPath(token)}` } };
  }

  private log(d: ClaimedDelivery, outcome: AttemptOutcome, attempts: number, what: string) {
    const error = outcome.kind === 'sent' ? null : outcome.error;
    this.deps.logger.warn(
      { deliveryId: d.id, channelId: d.channelId, event: d.event.kind, attempts, error },
      `notifier: delivery failed; ${what}`,
    );
  }
}
