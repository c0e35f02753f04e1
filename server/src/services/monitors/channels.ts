import type { ServiceDeps } from '../deps.js';
import { validationFailed } from '../../lib/errors.js';

/**
 * The channels a monitor write links: the given ones (each must exist), else the default
 * channels for a new monitor, else undefined (an update keeps its links).
 */
export async function channelsToLink(
  deps: ServiceDeps,
  given: readonly number[] | undefined,
  creating: boolean,
): Promise<number[] | undefined> {
  const repo = deps.repos.notificationChannels;
  if (given === undefined) return creating ? repo.defaultIds() : undefined;
  await refuseUnknownChannels(deps, given);
  return [...new Set(given)];
}

/** Refuses channel ids that name no channel, all of them in one message. */
export async function refuseUnknownChannels(
  deps: ServiceDeps,
  given: readonly number[],
): Promise<void> {
  const known = await deps.repos.notificationChannels.existingIds(given);
  const unknown = given.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw validationFailed([
      {
        path: 'channelIds',
        message: `No notification channel has id ${unknown.join(', ')}`,
        code: 'custom',
      },
    ]);
  }
}
