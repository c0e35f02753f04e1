import type { ChannelAttachInput, ChannelAttachResult, ChannelCoverage } from '@pagewatch/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../domain/actor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { findChannel } from './get.js';

type Attach = z.output<typeof ChannelAttachInput>;

/** The monitors no enabled channel alerts for: they would go down in silence. */
export async function channelCoverage(deps: ServiceDeps): Promise<ChannelCoverage> {
  const repo = deps.repos.channelCoverage;
  const [monitors, covered] = await Promise.all([repo.monitors(), repo.coveredIds()]);
  return {
    monitors: monitors.length,
    uncovered: monitors.filter((m) => !covered.has(m.id)).map(({ id, name }) => ({ id, name })),
  };
}

/** Links a channel to every monitor, or to every monitor with a tag, in one write. */
export async function attachChannel(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: Attach,
): Promise<ChannelAttachResult> {
  const channel = await findChannel(deps, id);
  const repo = deps.repos.channelCoverage;
  const all = await repo.monitors();
  const scope = input.scope === 'all' ? all : all.filter((m) => m.tags.includes(input.tag));
  const attached = await repo.attach(
    id,
    scope.map((m) => m.id),
  );
  const where = input.scope === 'all' ? 'every monitor' : `the monitors tagged "${input.tag}"`;
  await audit(
    deps,
    ctx,
    'notification_channel.attached',
    { type: 'notification_channel', id },
    `Attached "${channel.name}" to ${where}: ${attached} added, ${scope.length} in all`,
  );
  return { attached, matched: scope.length };
}
