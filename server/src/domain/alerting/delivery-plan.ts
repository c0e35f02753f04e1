import { deliveryPolicy } from '@pagewatch/contract';

export type DeliveryPolicy = { [K in keyof typeof deliveryPolicy]: number };

/**
 * Wait before the next attempt after `attempts` failed ones (SPEC §9: 10 s × 3ⁿ, capped at
 * 1 h); a receiver's Retry-After is honoured when it asks for longer, within the cap.
 */
export function retryDelayMs(
  attempts: number,
  policy: DeliveryPolicy = deliveryPolicy,
  retryAfterMs: number | null = null,
): number {
  const backoff = policy.baseDelayMs * policy.factor ** Math.max(0, attempts - 1);
  return Math.min(Math.max(backoff, retryAfterMs ?? 0), policy.maxDelayMs);
}

export interface StreamRow {
  id: number;
  channelId: number;
  orderKey: string;
}

/**
 * The head of each stream (channel, order key): its oldest undelivered row. Only heads may be
 * sent, so a "down" never arrives after its "up", however often the "down" is retried. `rows`
 * must be in id order.
 */
export function streamHeads<R extends StreamRow>(rows: readonly R[]): R[] {
  const seen = new Set<string>();
  const heads: R[] = [];
  for (const r of rows) {
    const key = `${r.channelId}\u0000${r.orderKey}`;
    if (seen.has(key)) continue;
    seen.add(key);
    heads.push(r);
  }
  return heads;
}
