import type { MonitorStatus } from '@pagewatch/contract';
import { Icon } from '../../../components/ui/Icon';
import { formatCount } from '../../../lib/format';
import { statusMeta, statusOrder } from './status';

interface StatusChipsProps {
  counts: Record<MonitorStatus, number>;
  total: number;
  value: MonitorStatus | null;
  onChange: (status: MonitorStatus | null) => void;
}

/** Counts by status that double as the status filter. */
export function StatusChips({ counts, total, value, onChange }: StatusChipsProps) {
  return (
    <div className="chips" role="group" aria-label="Filter by status">
      <button
        type="button"
        className="chip"
        aria-pressed={value === null}
        onClick={() => onChange(null)}
      >
        All <span className="chip__count">{formatCount(total)}</span>
      </button>
      {statusOrder.map((status) => {
        const count = counts[status];
        // Rare statuses only take space when something is in them (or they are the active filter).
        if (count === 0 && value !== status && (status === 'maintenance' || status === 'paused'))
          return null;
        return (
          <button
            key={status}
            type="button"
            className={`chip chip--${status}`}
            aria-pressed={value === status}
            data-testid={`status-chip-${status}`}
            onClick={() => onChange(value === status ? null : status)}
          >
            <Icon name={statusMeta[status].icon} size={14} />
            {statusMeta[status].label}
            <span className="chip__count">{formatCount(count)}</span>
          </button>
        );
      })}
    </div>
  );
}
