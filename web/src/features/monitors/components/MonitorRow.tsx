import type { MonitorRow as Row } from '@pagewatch/contract';
import { memo } from 'react';
import { Link } from 'react-router';
import { MiddleEllipsis } from '../../../components/ui/MiddleEllipsis';
import { NoChannelMarker } from '../../notifications/components/CoverageSummary';
import { HeldNote } from '../../dependencies/HeldNote';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formatMs, formatPercent } from '../../../lib/format';
import { Sparkline } from './Sparkline';
import { StatusBadge } from './StatusBadge';

const MAX_TAGS = 3;

function latencyText(m: Row): string {
  const last = m.lastCheck;
  if (!last) return '—';
  if (last.outcome === 'down' && last.latencyMs === null) return last.errorCode ? 'failed' : '—';
  return formatMs(last.latencyMs);
}

/** One dashboard row; memoised so a live update re-renders only the monitor that changed. */
export const MonitorRow = memo(function MonitorRow({
  monitor: m,
  index,
  measure,
  selected = false,
  onSelect,
}: {
  monitor: Row;
  /** Position in the whole filtered list: rows are virtualised and paged, so it says where. */
  index: number;
  /** Reports the row's rendered height to the virtualiser (cards on phones vary). */
  measure?: (row: HTMLTableRowElement | null) => void;
  /** Ticked for a bulk action; the box shows only where `onSelect` is given (editors). */
  selected?: boolean;
  /** `range`: shift was held, ticking every row from the last one clicked. */
  onSelect?: (id: number, range: boolean) => void;
}) {
  // A REGIONAL row names where it fails (the quorum's message), whatever the last check said.
  const failing = m.lastCheck?.outcome === 'down' || m.status === 'regional' ? m.lastCheck : null;
  return (
    <tr
      ref={measure}
      className={selected ? 'mrow mrow--selected' : 'mrow'}
      data-testid="monitor-row"
      data-status={m.status}
      data-monitor-id={m.id}
      data-index={index}
      // Header row is 1; rows count from 2 (ARIA rowindex is 1-based and includes it).
      aria-rowindex={index + 2}
    >
      {onSelect && (
        <td className="mrow__pick">
          <input
            type="checkbox"
            className="mrow__check"
            checked={selected}
            aria-label={`Select ${m.name}`}
            // The click carries the shift key (a change event does not); Space clicks too.
            onClick={(e) => onSelect(m.id, e.shiftKey)}
            onChange={() => undefined}
          />
        </td>
      )}
      <td className="mrow__status">
        <StatusBadge status={m.status} />
      </td>
      <td className="mrow__main">
        <span className="mrow__line">
          <Link to={`/monitors/${m.id}`} className="mrow__name row-link">
            <MiddleEllipsis text={m.name} />
          </Link>
          <NoChannelMarker id={m.id} />
          <HeldNote id={m.id} status={m.status} />
          {m.tags.slice(0, MAX_TAGS).map((t) => (
            <span key={t} className="tag">
              {t}
            </span>
          ))}
          {m.tags.length > MAX_TAGS && (
            <span className="tag" title={m.tags.slice(MAX_TAGS).join(', ')}>
              +{m.tags.length - MAX_TAGS}
            </span>
          )}
        </span>
        <span className="mrow__line mrow__sub">
          <span className="mrow__target" title={m.target}>
            {m.target}
          </span>
          {failing?.errorMessage && (
            <span
              className={
                m.status === 'regional' ? 'mrow__error mrow__error--regional' : 'mrow__error'
              }
              title={failing.errorMessage}
            >
              {failing.errorMessage}
            </span>
          )}
        </span>
      </td>
      <td className="mrow__num mrow__latency" data-label="Latency">
        {latencyText(m)}
      </td>
      <td className="mrow__num mrow__uptime" data-label="24 h">
        {formatPercent(m.uptime24h)}
      </td>
      <td className="mrow__spark">
        <Sparkline recent={m.recent} />
      </td>
      <td className="mrow__checked" data-label="Checked">
        <RelativeTime iso={m.lastCheck?.at} />
      </td>
    </tr>
  );
});
