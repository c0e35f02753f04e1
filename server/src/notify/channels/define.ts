import type { AlertEvent, ChannelConfig, ChannelKind, ChannelSecrets } from '@pagewatch/contract';
import type { Channel, ChannelTarget, SendContext } from '../channel.js';

export type TargetOf<K extends ChannelKind> = ChannelTarget<ChannelConfig<K>, ChannelSecrets<K>>;

/** A channel with its kind's config and secrets typed from contract/. */
export function defineChannel<K extends ChannelKind>(
  kind: K,
  send: (target: TargetOf<K>, event: AlertEvent, ctx: SendContext) => Promise<void>,
): Channel {
  return { kind, send: (target, event, ctx) => send(target as unknown as TargetOf<K>, event, ctx) };
}

/** Cuts text to a service's limit, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Joins a base URL that may end in a slash or carry a path prefix with an API path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
