import {
  channelSchemas,
  type AlertEvent,
  type ChannelKind,
  type MessageTemplate,
} from '@pagewatch/contract';
import { channelEgress } from '../../src/notify/address-guard.js';
import type { ChannelTarget, SendContext } from '../../src/notify/channel.js';
import { ChannelError } from '../../src/notify/channel.js';
import { channelRegistry } from '../../src/notify/channels/registry.js';
import { expect } from 'vitest';

export const PUBLIC_URL = 'https://pagewatch.example';

/** A monitor going down, as the outbox stores it; override any field. */
export function downEvent(overrides: Partial<AlertEvent> = {}): AlertEvent {
  return {
    kind: 'monitor.down',
    at: '2026-11-22T06:05:31.000Z',
    monitor: { id: 42, name: 'Shop API', type: 'http', target: 'https://shop.example/health' },
    status: 'down',
    previousStatus: 'up',
    cause: {
      code: 'http_status',
      message: 'HTTP 503 Service Unavailable',
      phase: 'content',
      since: '2026-11-22T06:04:31.000Z',
    },
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
    ...overrides,
  };
}

export function upEvent(): AlertEvent {
  return downEvent({
    kind: 'monitor.up',
    status: 'up',
    previousStatus: 'down',
    cause: null,
    outageMs: 7_500_000,
  });
}

export function incidentEvent(kind: 'incident.created' | 'incident.resolved'): AlertEvent {
  return downEvent({
    kind,
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    incident: {
      id: 7,
      title: 'Checkout errors',
      state: kind === 'incident.resolved' ? 'resolved' : 'investigating',
      severity: 'major',
      message: 'We are looking into it.',
    },
  });
}

/** A target of `kind` with its schema's defaults filled in, as the notifier hands it over. */
export function targetOf(
  kind: ChannelKind,
  config: Record<string, unknown>,
  secrets: Record<string, unknown>,
  template: MessageTemplate = { title: '', body: '' },
): ChannelTarget {
  const schema = channelSchemas[kind];
  return {
    id: 1,
    name: `${kind} channel`,
    kind,
    config: schema.config.parse(config),
    secrets: schema.secrets.parse(secrets),
    template,
  };
}

export function sendContext(overrides: Partial<SendContext> = {}): SendContext {
  return {
    publicUrl: PUBLIC_URL,
    timeoutMs: 5000,
    egress: channelEgress(false),
    deliveryId: 99,
    ...overrides,
  };
}

export function send(target: ChannelTarget, event: AlertEvent, ctx = sendContext()): Promise<void> {
  return channelRegistry[target.kind].send(target, event, ctx);
}

/** The ChannelError a send fails with. */
export async function sendError(
  target: ChannelTarget,
  event: AlertEvent,
  ctx = sendContext(),
): Promise<ChannelError> {
  const err = await send(target, event, ctx).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelError);
  return err as ChannelError;
}

/** Any HTTP channel: 500 → transient with the body, 400 → permanent, 429 → Retry-After kept. */
export async function expectHttpErrorMapping(
  receiver: { answer(status: number, o?: { body?: string }): void; rateLimit(s: string): void },
  target: ChannelTarget,
): Promise<void> {
  receiver.answer(500, { body: 'upstream exploded' });
  expect(await sendError(target, downEvent())).toMatchObject({
    permanent: false,
    message: 'HTTP 500: upstream exploded',
  });
  receiver.answer(400, { body: 'bad payload' });
  expect(await sendError(target, downEvent())).toMatchObject({
    permanent: true,
    message: 'HTTP 400: bad payload',
  });
  receiver.rateLimit('30');
  expect(await sendError(target, downEvent())).toMatchObject({
    permanent: false,
    retryAfterMs: 30_000,
  });
}
