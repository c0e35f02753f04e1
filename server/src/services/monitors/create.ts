import type { MonitorInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { newPushToken } from '../push/token.js';
import { channelsToLink } from './channels.js';
import { sealCredentials } from './credentials.js';
import { sealHeaders } from './request-headers.js';

/**
 * Creates a monitor. A clone names its `source`: secrets the input leaves out (a password, a
 * token, secret header values) are copied from it here, so they never travel to the browser.
 */
export async function createMonitor(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: MonitorInput,
  source: MonitorRecord | null = null,
): Promise<MonitorRecord> {
  const push = input.type === 'push' ? newPushToken() : null;
  const headers = sealHeaders(input, source, deps.secrets);
  const sealed = sealCredentials(headers.input, source, deps.secrets);
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
    source
      ? `Created ${monitor.type} monitor "${monitor.name}" as a copy of "${source.name}"`
      : `Created ${monitor.type} monitor "${monitor.name}"`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'created', monitorId: monitor.id });
  return monitor;
}
