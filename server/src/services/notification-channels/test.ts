import type { ChannelTestResult } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { channelEgress } from '../../notify/address-guard.js';
import { ChannelError } from '../../notify/channel.js';
import { channelRegistry } from '../../notify/channels/registry.js';
import { testEvent } from '../../notify/message.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { findChannel } from './get.js';
import { openSecrets } from './secrets.js';

export const TEST_TIMEOUT_MS = 10_000;

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
};

/** Plain words for why a send failed; a channel's own errors already are. */
export function describeSendError(err: unknown): string {
  if (err instanceof ChannelError) return err.message;
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError')
      return `no answer within ${TEST_TIMEOUT_MS / 1000} s`;
    const code = (err.cause as { code?: string } | undefined)?.code;
    if (code) return NETWORK_ERRORS[code] ?? `${code}: ${err.message}`;
    return err.message;
  }
  return String(err);
}

/** Sends the test event through the channel now, outside the outbox, and says how it went. */
export async function testChannel(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<ChannelTestResult> {
  const channel = await findChannel(deps, id);
  const started = performance.now();
  let error: string | null = null;
  try {
    await channelRegistry[channel.kind].send(
      { ...channel, secrets: openSecrets(channel, deps.secrets) },
      testEvent(new Date(deps.clock.now())),
      {
        publicUrl: deps.publicUrl?.replace(/\/+$/, '') ?? null,
        timeoutMs: TEST_TIMEOUT_MS,
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
        egress: channelEgress(deps.blockPrivateNotifyTargets ?? false),
        deliveryId: 0,
      },
    );
  } catch (err) {
    error = describeSendError(err);
  }
  const durationMs = Math.round(performance.now() - started);
  await audit(
    deps,
    ctx,
    'notification_channel.tested',
    { type: 'notification_channel', id },
    `Sent a test through "${channel.name}": ${error === null ? 'delivered' : 'failed'}`,
  );
  return { ok: error === null, error, durationMs };
}
