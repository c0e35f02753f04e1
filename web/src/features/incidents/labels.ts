import type { IncidentSeverity, IncidentState } from '@pagewatch/contract';
import type { IconName } from '../../components/ui/Icon';

export const stateMeta: Record<IncidentState, { label: string; icon: IconName }> = {
  investigating: { label: 'Investigating', icon: 'search' },
  identified: { label: 'Identified', icon: 'alertCircle' },
  monitoring: { label: 'Monitoring', icon: 'eye' },
  resolved: { label: 'Resolved', icon: 'checkCircle' },
};

export const stateOrder: readonly IncidentState[] = [
  'investigating',
  'identified',
  'monitoring',
  'resolved',
];

export const severityLabel: Record<IncidentSeverity, string> = {
  minor: 'Minor',
  major: 'Major',
  critical: 'Critical',
};

export const severityHint: Record<IncidentSeverity, string> = {
  minor: 'Some people notice: slower pages, one feature degraded.',
  major: 'Many people are affected: a main feature does not work.',
  critical: 'Everything or nearly everything is unavailable.',
};
