import type { LastCheck, Monitor, MonitorStatus, MonitorSummary } from '@pagewatch/contract';
import { displayStatus } from '../../domain/monitor-state.js';
import type { LastCheckRecord, MonitorRecord } from '../../domain/monitor.js';
import { monitorTarget } from '../../domain/monitor-types.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function lastCheck(c: LastCheckRecord | null): LastCheck | null {
  return c && { ...c, at: new Date(c.at).toISOString() };
}

function state(m: MonitorRecord) {
  return {
    id: m.id,
    status: displayStatus(m.state, m.paused),
    statusChangedAt: iso(m.statusChangedAt),
    lastCheck: lastCheck(m.lastCheck),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
  };
}

/** The full monitor, definition included, for its page and its edit form. */
export function presentMonitor(m: MonitorRecord): Monitor {
  return {
    ...state(m),
    ...m.settings,
    type: m.type,
    name: m.name,
    interval: m.interval,
    timeout: m.timeout,
    retries: m.retries,
    retryInterval: m.retryInterval,
    degradedThresholdMs: m.degradedThresholdMs,
    tags: m.tags,
    description: m.description,
    paused: m.paused,
  };
}

export function presentSummary(m: MonitorRecord, uptime24h: number | null): MonitorSummary {
  return {
    ...state(m),
    type: m.type,
    name: m.name,
    target: monitorTarget(m),
    interval: m.interval,
    tags: m.tags,
    paused: m.paused,
    uptime24h,
    recent: m.recent.map(([outcome, latencyMs]) => ({ outcome, latencyMs })),
  };
}

export function countByStatus(items: readonly MonitorSummary[]): Record<MonitorStatus, number> {
  const counts: Record<MonitorStatus, number> = {
    pending: 0,
    up: 0,
    degraded: 0,
    down: 0,
    paused: 0,
    maintenance: 0,
  };
  for (const i of items) counts[i.status] += 1;
  return counts;
}
