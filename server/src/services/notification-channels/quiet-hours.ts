import type { ChannelQuietHours } from '@pagewatch/contract';
import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Refuses a quiet-hours reroute (ADR 68) to the channel itself or to a channel that does not
 * exist, on `quietHours.rerouteChannelId`. A reroute chain that comes back is allowed: routing
 * stops where it would repeat and the message waits there, so nothing can loop or be lost.
 */
export async function checkReroute(
  deps: ServiceDeps,
  id: number | null,
  quiet: ChannelQuietHours,
): Promise<void> {
  const target = quiet.rerouteChannelId;
  if (target === null) return;
  const refuse = (code: string, message: string) =>
    validationFailed([{ path: 'quietHours.rerouteChannelId', code, message }], message);
  if (target === id)
    throw refuse('reroute_self', 'Quiet hours cannot send messages to the same channel');
  const known = await deps.repos.notificationChannels.fallbacks();
  if (!known.has(target)) throw refuse('reroute_missing', 'The channel to send to does not exist');
}
