import type { Monitor } from '@pagewatch/contract';
import { displayStatus } from '../../domain/monitor-state.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { presentLastCheck } from '../../services/monitors/present-summary.js';

export { countByStatus, presentSummary } from '../../services/monitors/present-summary.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The full monitor, definition included, for its page and its edit form. */
export function presentMonitor(m: MonitorRecord): Monitor {
  return {
    id: m.id,
    status: displayStatus(m.state, m.paused),
    statusChangedAt: iso(m.statusChangedAt),
    lastCheck: presentLastCheck(m.lastCheck),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
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
  } as Monitor; // settings and type were validated together by MonitorInput when stored
}
