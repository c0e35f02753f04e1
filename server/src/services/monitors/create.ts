import type { MonitorInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { newPushToken } from '../push/token.js';
import { channelsToLink } from './channels.js';
import { sealCredentials } from './credentials.js';
import { sealHeaders } from './request-headers.js';

export async function createMonitor(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: MonitorInput,
): Promise<MonitorRecord> {
  const push = input.type === 'push' ? newPushToken() : null;
  const headers = sealHeaders(input, null, deps.secrets);
  const sealed = sealCredentials(headers.input, null, deps.secrets);
  const channelIds = await channelsToLink(deps, input.channelIds, true);
  const monitor = await deps.repos.monitors.insert(
    sealed.input,
    deps.clock.now(),
    push,
    { secret: sealed.secret, headerSecrets: headers.headerSecrets },
    channelIds,
  );
  await audit(
    deps,
    ctx,
    'monitor.created',
    { type: 'monitor', id: monitor.id },
    `Created ${monitor.type} monitor "${monitor.name}"`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'created', monitorId: monitor.id });
  return monitor;
}
