import type { AlertEvent } from '@pagewatch/contract';

/**
 * Why a delivery went to its channel rather than the one it was meant for, in a line for the
 * Deliveries screen; null for a delivery that went where it was meant to. The message itself
 * says the same (ADR 62 for a failing channel's fallback, ADR 68 for quiet hours); here a
 * person reading the log sees it without opening the message.
 */
export function deliveryRoute(event: AlertEvent): string | null {
  const from = event.rerouted?.from ?? [];
  if (from.length > 0)
    return `Rerouted from ${from.map((c) => c.channelName).join(', then ')} (quiet hours)`;
  const failed = event.fallback;
  if (failed) return `Fallback for ${failed.channelName} (${failed.failures} failed in a row)`;
  return null;
}
