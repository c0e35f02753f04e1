import type { ChannelTestResult } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { channelEgress } from '../../notify/address-guard.js';
import { ChannelError } from '../../notify/channel.js';
import { channelRegistry } from '../../notify/channels/registry.js';
import { testEvent } from '../../notify/message.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { findChannel } from './get.js';
import { mergeSecrets, openSecrets } from './secrets.js';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { ChannelCreate } from './create.js';

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
  return sendTest(deps, ctx, channel, openSecrets(channel, deps.secrets), id, false);
}

/**
 * Sends the test event through settings not saved yet. With an id, secrets left out are the
 * stored ones (opened here, never sent back), as an update would keep them.
 */
export async function testChannelSettings(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number | null,
  input: ChannelCreate,
): Promise<ChannelTestResult> {
  const before = id === null ? null : await findChannel(deps, id);
  const kept = before && before.kind === input.kind ? openSecrets(before, deps.secrets) : {};
  const secrets = mergeSecrets(input.kind, input.secrets, kept);
  const now = deps.clock.now();
  const draft: ChannelRecord = {
    id: id ?? 0,
    name: input.name,
    kind: input.kind,
    config: input.config as Record<string, unknown>,
    sealedSecrets: null,
    template: input.template,
    isDefault: input.isDefault,
    enabled: input.enabled,
    monitorCount: 0,
    createdAt: now,
    updatedAt: now,
    fallbackChannelId: null,
    failThreshold: input.failThreshold,
    consecutiveFailures: 0,
    lastError: null,
    quietHours: input.quietHours,
  };
  return sendTest(deps, ctx, draft, secrets, id, true);
}

async function sendTest(
  deps: ServiceDeps,
  ctx: RequestContext,
  channel: ChannelRecord,
  secrets: Record<string, unknown>,
  id: number | null,
  draft: boolean,
): Promise<ChannelTestResult> {
  const started = performance.now();
  let error: string | null = null;
  try {
    await channelRegistry[channel.kind].send(
      { ...channel, secrets },
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
  const unsaved = draft ? ' (unsaved settings)' : '';
  await audit(
    deps,
    ctx,
    'notification_channel.tested',
    id === null ? null : { type: 'notification_channel', id },
    `Sent a test through "${channel.name}"${unsaved}: ${error === null ? 'delivered' : 'failed'}`,
  );
  return { ok: error === null, error, durationMs };
}
