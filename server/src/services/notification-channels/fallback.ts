import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Refuses a fallback that is the channel itself, does not exist, or leads back to the channel
 * through other channels' fallbacks (ADR 62): a failing channel's messages must end somewhere.
 * `id` is null for a channel not created yet (it cannot be on any chain).
 */
export async function checkFallback(
  deps: ServiceDeps,
  id: number | null,
  fallbackId: number | null,
): Promise<void> {
  if (fallbackId === null) return;
  const refuse = (code: string, message: string) =>
    validationFailed([{ path: 'fallbackChannelId', code, message }], message);
  if (fallbackId === id) throw refuse('fallback_self', 'A channel cannot be its own fallback');
  const fallbacks = await deps.repos.notificationChannels.fallbacks();
  if (!fallbacks.has(fallbackId))
    throw refuse('fallback_missing', 'The fallback channel does not exist');
  const names = new Map<number, string>();
  const path: number[] = [fallbackId];
  let next = fallbacks.get(fallbackId) ?? null;
  while (next !== null && !path.includes(next)) {
    if (next === id) {
      for (const c of await deps.repos.notificationChannels.list()) names.set(c.id, c.name);
      const chain = [id, ...path, id].map((c) => `"${names.get(c) ?? `#${c}`}"`).join(' → ');
      throw refuse('fallback_cycle', `That fallback leads back to this channel: ${chain}`);
    }
    path.push(next);
    next = fallbacks.get(next) ?? null;
  }
}
