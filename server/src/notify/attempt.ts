import type { AlertEvent, ChannelKind } from '@pagewatch/contract';
import type { StoredChannel } from '../db/repositories/deliveries.js';
import type { SecretBox } from '../lib/crypto.js';
import { channelEgress } from './address-guard.js';
import { ChannelError, type Channel, type SendContext } from './channel.js';

/** How one attempt ended: the dispatcher turns it into the row's next state. */
export type AttemptOutcome =
  | { kind: 'sent' }
  | { kind: 'failed'; error: string }
  | { kind: 'retry'; error: string; retryAfterMs: number | null };

export interface AttemptContext {
  publicUrl: string | null;
  timeoutMs: number;
  deliveryId: number;
  /** The delivery's idempotency key (null on rows queued before keys existed). */
  idempotencyKey?: string | null;
  /** Refuse loopback and private addresses too (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS). */
  blockPrivate: boolean;
}

const MAX_ERROR = 300;

/** Error text for last_error: short, with the channel's secret values blanked out. */
export function errorText(err: unknown, secrets: Record<string, unknown>): string {
  let text = err instanceof Error ? err.message : String(err);
  // fetch() says only "fetch failed"; the reason (ECONNREFUSED…) is on its cause.
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') text = `${text}: ${cause.code}`;
  for (const value of Object.values(secrets)) {
    if (typeof value === 'string' && value.length >= 4) text = text.split(value).join('[secret]');
  }
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}

function openSecrets(channel: StoredChannel, box: SecretBox): Record<string, unknown> {
  if (channel.sealedSecrets === null) return {};
  return JSON.parse(box.open(channel.sealedSecrets)) as Record<string, unknown>;
}

/**
 * One send through the channel's implementation, bounded by the timeout even if the
 * implementation ignores its signal (the lease only covers the timeout and a margin).
 */
export async function attemptDelivery(
  channel: StoredChannel | null,
  event: AlertEvent,
  registry: Partial<Record<ChannelKind, Channel>>,
  box: SecretBox,
  ctx: AttemptContext,
): Promise<AttemptOutcome> {
  if (!channel) return { kind: 'failed', error: 'The channel no longer exists' };
  if (!channel.enabled) return { kind: 'failed', error: 'The channel is disabled' };
  const impl = registry[channel.kind];
  if (!impl) return { kind: 'failed', error: `No sender for ${channel.kind} channels` };
  let secrets: Record<string, unknown>;
  try {
    secrets = openSecrets(channel, box);
  } catch {
    return {
      kind: 'failed',
      error: 'The channel secrets cannot be opened (instance key changed?)',
    };
  }
  const { id, name, kind, config, template } = channel;
  const target = { id, name, kind, config, secrets, template };
  return bounded((send) => impl.send(target, event, send), ctx, secrets);
}

/**
 * Runs one send bounded by the timeout even if it ignores its signal, and maps how it ended;
 * `secrets` are blanked out of the error text.
 */
export async function bounded(
  run: (send: SendContext) => Promise<void>,
  ctx: AttemptContext,
  secrets: Record<string, unknown> = {},
): Promise<AttemptOutcome> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const send: SendContext = {
    publicUrl: ctx.publicUrl,
    timeoutMs: ctx.timeoutMs,
    deliveryId: ctx.deliveryId,
    idempotencyKey: ctx.idempotencyKey ?? null,
    signal: abort.signal,
    egress: channelEgress(ctx.blockPrivate),
  };
  try {
    await Promise.race([
      run(send),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new ChannelError(`No answer within ${ctx.timeoutMs} ms`, false));
        }, ctx.timeoutMs);
      }),
    ]);
    return { kind: 'sent' };
  } catch (err) {
    const error = errorText(err, secrets);
    if (err instanceof ChannelError) {
      return err.permanent
        ? { kind: 'failed', error }
        : { kind: 'retry', error, retryAfterMs: err.retryAfterMs };
    }
    return { kind: 'retry', error, retryAfterMs: null };
  } finally {
    clearTimeout(timer);
  }
}
