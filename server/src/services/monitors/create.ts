import type { MonitorInput } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { actorOf, audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { newPushToken } from '../push/token.js';
import { channelsToLink, refuseUnknownChannels } from './channels.js';
import { checkMonitorReferences } from './references.js';
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
  await checkMonitorReferences(deps, null, input, input.name);
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

/**
 * Creates many monitors at once (a configuration apply of thousands), with the effects of
 * `createMonitor` — sealed secrets, channel links (given, else the defaults), an audit line
 * and an event each — in a few statements instead of several per monitor.
 */
export async function createMonitors(
  deps: ServiceDeps,
  ctx: RequestContext,
  inputs: readonly MonitorInput[],
): Promise<MonitorRecord[]> {
  if (inputs.length === 0) return [];
  for (const input of inputs) await checkMonitorReferences(deps, null, input, input.name);
  const repo = deps.repos.notificationChannels;
  const defaults = inputs.some((i) => i.channelIds === undefined) ? await repo.defaultIds() : [];
  await refuseUnknownChannels(deps, [...new Set(inputs.flatMap((i) => i.channelIds ?? []))]);
  const now = deps.clock.now();
  const monitors = await deps.repos.monitors.insertMany(
    inputs.map((input) => {
      const headers = sealHeaders(input, null, deps.secrets);
      const sealed = sealCredentials(headers.input, null, deps.secrets);
      return {
        input: sealed.input,
        push: input.type === 'push' ? newPushToken() : null,
        sealed: { secret: sealed.secret, headerSecrets: headers.headerSecrets },
        channelIds: input.channelIds ?? defaults,
      };
    }),
    now,
  );
  const actor = actorOf(ctx);
  await deps.repos.audit.insertMany(
    monitors.map((m) => ({
      at: now,
      actor,
      action: 'monitor.created' as const,
      target: { type: 'monitor', id: String(m.id) },
      ip: ctx.ip,
      summary: `Created ${m.type} monitor "${m.name}"`,
    })),
  );
  for (const m of monitors)
    deps.hub.publish({ kind: 'monitor', change: 'created', monitorId: m.id });
  return monitors;
}
