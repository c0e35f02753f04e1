import {
  encodeRecent,
  type LastCheck,
  type MonitorStatus,
  type MonitorSummary,
} from '@pagewatch/contract';
import { displayStatus } from '../../domain/monitor-state.js';
import { monitorTarget } from '../../domain/monitor-types.js';
import { RECENT_KEEP, type LastCheckRecord, type MonitorRecord } from '../../domain/monitor.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentLastCheck(c: LastCheckRecord | null): LastCheck | null {
  return c && { ...c, at: new Date(c.at).toISOString() };
}

/** One dashboard row (SPEC §2): status, last check, 24 h uptime and the sparkline data. */
export function presentSummary(
  m: MonitorRecord,
  uptime24h: number | null,
  maintenance = false,
): MonitorSummary {
  return {
    id: m.id,
    status: displayStatus(m.state, m.paused, maintenance),
    statusChangedAt: iso(m.statusChangedAt),
    lastCheck: presentLastCheck(m.lastCheck),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
    type: m.type,
    name: m.name,
    target: monitorTarget(m),
    interval: m.interval,
    tags: m.tags,
    paused: m.paused,
    uptime24h,
    recent: encodeRecent(m.recent, RECENT_KEEP),
  };
}

export function countByStatus(items: Iterable<MonitorSummary>): Record<MonitorStatus, number> {
  const counts: Record<MonitorStatus, number> = {
    pending: 0,
    up: 0,
    degraded: 0,
    down: 0,
    paused: 0,
    maintenance: 0,
    regional: 0,
    unknown: 0,
  };
  for (const i of items) counts[i.status] += 1;
  return counts;
}
