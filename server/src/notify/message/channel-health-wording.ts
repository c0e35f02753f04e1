import type { AlertEvent } from '@pagewatch/contract';
import type { Escape } from './escape.js';
import type { Tone } from './format.js';

/** Wording of `channel.failing` and `channel.recovered`, the admin notices (ADR 62). */
export function channelHealthWording(
  e: AlertEvent,
): { title: string; tone: Tone; summary: (x: Escape) => string } | null {
  const h = e.channelHealth;
  if (!h || !e.kind.startsWith('channel.')) return null;
  if (e.kind === 'channel.recovered') {
    return {
      title: `Channel ${h.channelName} delivers again`,
      tone: 'ok',
      summary: (x) =>
        `The notification channel ${x(h.channelName)} delivered a message again after ${h.failures} failed deliveries in a row.`,
    };
  }
  return {
    title: `Channel ${h.channelName} is failing`,
    tone: 'critical',
    summary: (x) =>
      `The notification channel ${x(h.channelName)} failed ${h.failures} deliveries in a row` +
      (h.lastError ? `; last error: ${x(h.lastError)}` : '') +
      '. Its messages now come here as fallback until it delivers again.',
  };
}

export const FALLBACK_TITLE_PREFIX = '[Fallback] ';

/** The line a fallback message starts with: that it is one, and why (ADR 62); null otherwise. */
export function fallbackNote(e: AlertEvent): ((x: Escape) => string) | null {
  const f = e.fallback;
  if (!f) return null;
  return (x) =>
    `Fallback: sent here because the channel ${x(f.channelName)} failed ${f.failures} deliveries in a row` +
    (f.lastError ? ` (last error: ${x(f.lastError)})` : '') +
    '.';
}
