import { limits, MonitorEntry, PushToken } from '@pagewatch/contract';
import { clamp, item, skipped } from '../uptime-kuma/keys.js';
import { goDurationMs } from './conditions.js';
import {
  alertsOf,
  fieldErrors,
  handled,
  leftOut,
  type AlertContext,
  type MappedMonitors,
} from './endpoints.js';
import { str, type GatusKeys } from './keys.js';
import type { GatusMap } from './read.js';

/** Gatus `external-endpoints` → push monitors; their token becomes the push token if it fits. */
export function mapExternal(list: GatusMap[], keys: GatusKeys, ctx: AlertContext): MappedMonitors {
  const out: MappedMonitors = { entries: [], items: [], pushTokens: new Map() };
  for (const [i, e] of list.entries()) {
    const name = str(e.name) || `external endpoint ${i + 1}`;
    const group = str(e.group);
    const source = `external-endpoint "${group ? `${group}/` : ''}${name}"`;
    const notes = [
      "Jobs now report to /api/push/<token> (GET or POST) instead of Gatus's /api/v1/endpoints/<key>/external",
    ];
    leftOut(e, handled.external, notes);
    const heartbeat = goDurationMs(str(((e.heartbeat ?? {}) as GatusMap).interval || ''));
    if (heartbeat === null) {
      notes.push('It has no heartbeat interval: Pagewatch expects a push at least once a day');
    }
    const interval = clamp(Math.round((heartbeat ?? 86_400_000) / 1000), 10, 86_400);
    if (heartbeat !== null && interval * 1000 !== heartbeat) {
      notes.push(
        `Heartbeat interval ${str(((e.heartbeat ?? {}) as GatusMap).interval)} → ${interval} s`,
      );
    }
    const entry = {
      key: keys.next(group, name),
      type: 'push',
      name: name.slice(0, limits.nameMax),
      interval,
      retries: 0,
      tags: group ? [`group:${group}`.slice(0, limits.tagMax)] : [],
      paused: e.enabled === false,
      ...alertsOf(e, ctx, notes),
    };
    const parsed = MonitorEntry.safeParse(entry);
    if (!parsed.success) {
      const reason = `Pagewatch refuses its settings: ${fieldErrors(parsed.error.issues)}`;
      out.items.push(skipped('monitor', source, name, reason, notes));
      continue;
    }
    out.entries.push(parsed.data);
    const token = str(e.token);
    if (PushToken.safeParse(token).success) out.pushTokens.set(parsed.data.key, token);
    else notes.push('Its token is not 8–64 letters, digits, - and _: it gets a new push URL');
    out.items.push(item('monitor', source, name, parsed.data.key, notes));
  }
  return out;
}
