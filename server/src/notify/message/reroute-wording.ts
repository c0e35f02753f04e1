import type { AlertEvent } from '@pagewatch/contract';
import type { Escape } from './escape.js';

export const REROUTED_TITLE_PREFIX = '[Rerouted] ';

/**
 * The line a message rerouted by a channel's quiet hours starts with (ADR 68 addendum): the
 * channel it was meant for, and any quiet channel it passed on the way; null otherwise.
 */
export function rerouteNote(e: AlertEvent): ((x: Escape) => string) | null {
  const from = e.rerouted?.from ?? [];
  const [first, ...via] = from;
  if (!first) return null;
  return (x) =>
    `Rerouted: sent here from the channel ${x(first.channelName)} because of its quiet hours` +
    (via.length > 0 ? `, passing ${via.map((c) => x(c.channelName)).join(', ')} (quiet too)` : '') +
    '.';
}
