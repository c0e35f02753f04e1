import type { CheckOutcome, MonitorStatus } from '@pagewatch/contract';
import type { IconName } from '../../../components/ui/Icon';

export interface StatusMeta {
  label: string;
  icon: IconName;
  /** Worst first: used to sort the dashboard by status. */
  rank: number;
}

export const statusMeta: Record<MonitorStatus, StatusMeta> = {
  down: { label: 'Down', icon: 'xCircle', rank: 0 },
  degraded: { label: 'Degraded', icon: 'alertTriangle', rank: 1 },
  pending: { label: 'Pending', icon: 'clock', rank: 2 },
  maintenance: { label: 'Maintenance', icon: 'wrench', rank: 3 },
  up: { label: 'Up', icon: 'checkCircle', rank: 4 },
  paused: { label: 'Paused', icon: 'pauseCircle', rank: 5 },
};

/** Display order of the status filter chips. */
export const statusOrder: readonly MonitorStatus[] = [
  'down',
  'degraded',
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
