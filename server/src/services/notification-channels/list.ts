import { atLeast, type ChannelList } from '@pagewatch/contract';
import { actorRole, type RequestContext } from '../../domain/actor.js';
import type { ServiceDeps } from '../deps.js';
import { briefChannel, presentChannel } from './present.js';

/**
 * Every channel. Editors pick a monitor's channels, so they get the list too, but only
 * names and kinds: settings (URLs, addresses) stay with owners and admins (SPEC §6).
 */
export async function listChannels(deps: ServiceDeps, ctx: RequestContext): Promise<ChannelList> {
  const role = actorRole(ctx.actor);
  const full = role !== null && atLeast(role, 'admin');
  const records = await deps.repos.notificationChannels.list();
  return {
    items: records.map((c) => (full ? presentChannel(c, deps.secrets) : briefChannel(c))),
  };
}
