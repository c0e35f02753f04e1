import type { AlertEvent, ChannelKind, MessageTemplate } from '@pagewatch/contract';
import type { EgressPolicy } from './address-guard.js';

/**
 * Why a send failed. `permanent` failures (a 4xx other than 408/429, a rejected address, a
 * bad configuration) are not retried; the rest follow the SPEC §9 schedule.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** A server's Retry-After, in ms, when it gave one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

/** A channel as the notifier sends through it: settings with secrets opened. */
export interface ChannelTarget<C = Record<string, unknown>, S = Record<string, unknown>> {
  id: number;
  name: string;
  kind: ChannelKind;
  config: C;
  secrets: S;
  template: MessageTemplate;
}

/** What every send gets besides the event: where links point and the outbound limits. */
export interface SendContext {
  /** PAGEWATCH_PUBLIC_URL without a trailing slash, for links to monitor pages; null if unset. */
  publicUrl: string | null;
  /** Per-request time limit. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Whether loopback and private addresses are refused too, and by which setting. */
  egress: EgressPolicy;
  /** Stable across retries of one delivery: receivers can de-duplicate with it. */
  deliveryId: number;
  /**
   * Unique per (event, channel) and the same whichever process sends it or how often; null
   * for a test send or a row queued before keys existed.
   */
  idempotencyKey?: string | null;
}

/** One kind of channel: its send, and nothing else (the config schema lives in contract/). */
export interface Channel<C = Record<string, unknown>, S = Record<string, unknown>> {
  kind: ChannelKind;
  /** Delivers the event or throws ChannelError. */
  send(target: ChannelTarget<C, S>, event: AlertEvent, ctx: SendContext): Promise<void>;
}
