import type { MonitorStatus } from '@pagewatch/contract';
import { Icon } from '../../../components/ui/Icon';
import { statusMeta } from './status';

/** Status as colour, icon and word together, so it never relies on colour alone. */
export function StatusBadge({
  status,
  size = 'md',
}: {
  status: MonitorStatus;
  size?: 'md' | 'lg';
}) {
  const meta = statusMeta[status];
  return (
    <span className={`badge badge--${status} badge--${size}`} data-status={status}>
      <Icon name={meta.icon} size={size === 'lg' ? 16 : 14} />
      {meta.label}
    </span>
  );
}
