import type { CheckOutcome, MonitorStatus } from '@pagewatch/contract';
import type { IconName } from '../../../components/ui/Icon';
// Regional and unknown have their own colours (ADR 58) wherever a status is shown.
import '../../monitor-locations/monitor-locations.css';

export interface StatusMeta {
  label: string;
  icon: IconName;
  /** Worst first: used to sort the dashboard by status. */
  rank: number;
}

export const statusMeta: Record<MonitorStatus, StatusMeta> = {
  down: { label: 'Down', icon: 'xCircle', rank: 0 },
  regional: { label: 'Regional', icon: 'alertTriangle', rank: 1 },
  degraded: { label: 'Degraded', icon: 'alertTriangle', rank: 2 },
  unknown: { label: 'Unknown', icon: 'clock', rank: 3 },
  pending: { label: 'Pending', icon: 'clock', rank: 4 },
  maintenance: { label: 'Maintenance', icon: 'wrench', rank: 5 },
  up: { label: 'Up', icon: 'checkCircle', rank: 6 },
  paused: { label: 'Paused', icon: 'pauseCircle', rank: 7 },
};

/** Display order of the status filter chips. */
export const statusOrder: readonly MonitorStatus[] = [
  'down',
  'regional',
  'degraded',
  'unknown',
  'pending',
  'up',
  'maintenance',
  'paused',
];

export const outcomeLabel: Record<CheckOutcome, string> = {
  up: 'Up',
  degraded: 'Degraded',
  down: 'Down',
};
