import { checkMonitorReferences } from './references.js';
import type { MonitorInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { splitInput, type MonitorRecord } from '../../domain/monitor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { newPushToken } from '../push/token.js';
import { channelsToLink } from './channels.js';
import { sealCredentials } from './credentials.js';
import { sealHeaders } from './request-headers.js';

/** Names of the fields whose value differs; values stay out of the audit log (headers hold secrets). */
function changedFields(before: MonitorRecord, input: MonitorInput): string[] {
  const { common, settings } = splitInput(input);
  const was: Record<string, unknown> = { ...before, ...before.settings };
  return Object.entries({ ...common, ...settings })
    .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(was[key]))
    .map(([key]) => key);
}

/**
 * Replaces a monitor's definition; pointing it elsewhere starts its status over. `known` is
 * the monitor as just read in the same transaction (a configuration apply has them all).
 */
export async function updateMonitor(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: MonitorInput,
  known?: MonitorRecord,
): Promise<MonitorRecord> {
  const before = known ?? (await deps.repos.monitors.findById(id));
  if (!before) throw notFound('Monitor');
  await checkMonitorReferences(deps, id, input, input.name);
  const headers = sealHeaders(input, before, deps.secrets);
  const sealed = sealCredentials(headers.input, before, deps.secrets);
  const channelIds = await channelsToLink(deps, input.channelIds, false);
  const { settings } = splitInput(sealed.input);
  // A push monitor's settings (its grace period) say when, not what: no new target.
  const retargeted =
    before.type !== input.type ||
    (input.type !== 'push' && JSON.stringify(before.settings) !== JSON.stringify(settings));
  // Becoming a push monitor makes a token; leaving the type retires it, so old pings 404.
  const push =
    input.type === 'push'
      ? before.pushToken
        ? undefined
        : newPushToken()
      : before.pushToken
        ? null
        : undefined;
  const monitor = await deps.repos.monitors.replace(
    id,
    sealed.input,
    deps.clock.now(),
    retargeted,
    push,
    { secret: sealed.secret, headerSecrets: headers.headerSecrets },
    channelIds,
  );
  if (!monitor) throw notFound('Monitor');
  const changed = changedFields(before, sealed.input);
  if (JSON.stringify(monitor.alerts ?? null) !== JSON.stringify(before.alerts ?? null))
    changed.push('alerts');
  if (channelIds) changed.push('channelIds');
  if (sealed.secretChanged && !changed.includes(sealed.field)) changed.push(sealed.field);
  if (headers.changed && !changed.includes('headers')) changed.push('headers');
  await audit(
    deps,
    ctx,
    'monitor.updated',
    { type: 'monitor', id },
    `Updated "${monitor.name}": ${changed.join(', ') || 'no change'}`,
  );
  deps.hub.publish({ kind: 'monitor', change: 'updated', monitorId: id });
  return monitor;
}
