import type { MonitorType } from '@pagewatch/contract';
import type { MonitorRecord, MonitorSettings } from './monitor.js';

interface TypeTraits {
  /** What the monitor points at, as shown in lists. */
  target(settings: MonitorSettings): string;
}

/** Per-type facts the domain needs; one entry per check type. */
const traits: Record<MonitorType, TypeTraits> = {
  http: { target: (s) => s.url },
};

export const monitorTarget = (m: MonitorRecord): string => traits[m.type].target(m.settings);
