import type { Monitor } from '@pagewatch/contract';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/Icon';
import { Notice } from '../../../components/ui/Notice';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formatMs, formatSeconds } from '../../../lib/format';
import { useCan } from '../../auth/api/session';
import { dashboardHref } from '../dashboard-return';
import { errorLabel } from '../error-codes';
import { displayOf } from '../kinds/display';
import { MonitorActions } from './MonitorActions';
import { StatusBadge } from './StatusBadge';
import { HeldNote } from '../../dependencies/HeldNote';

function LastCheckLine({ monitor }: { monitor: Monitor }) {
  const last = monitor.lastCheck;
  if (!last) return <span>No checks yet</span>;
  return (
    <span>
      Last check <RelativeTime iso={last.at} />
      {last.httpStatus !== null && <> · HTTP {last.httpStatus}</>}
      {last.latencyMs !== null && <> · {formatMs(last.latencyMs)}</>}
    </span>
  );
}

export function MonitorHeader({ monitor }: { monitor: Monitor }) {
  // Viewers see no controls at all rather than buttons that fail (SPEC §6).
  const canEdit = useCan('editor');
  const last = monitor.lastCheck;
  const kind = displayOf(monitor);
  const failing = last && last.outcome !== 'up' && last.errorCode ? last : null;
  return (
    <header className="mhead">
      <Link to={dashboardHref()} className="back-link">
        <Icon name="chevronLeft" />
        Monitors
      </Link>
      <div className="mhead__top">
        <div className="mhead__title">
          <StatusBadge status={monitor.status} size="lg" />
          <h1 className="page-title">{monitor.name}</h1>
          <HeldNote id={monitor.id} status={monitor.status} />
        </div>
        {canEdit && <MonitorActions monitor={monitor} />}
      </div>
      <div className="mhead__meta">
        {kind.headerTarget(monitor)}
        <span>{kind.cadence?.(monitor) ?? `Every ${formatSeconds(monitor.interval)}`}</span>
        {monitor.statusChangedAt && (
          <span>
            Status since <RelativeTime iso={monitor.statusChangedAt} />
          </span>
        )}
        <LastCheckLine monitor={monitor} />
        {kind.flag?.(monitor)}
      </div>
      {monitor.tags.length > 0 && (
        <ul className="mhead__tags" aria-label="Tags">
          {monitor.tags.map((t) => (
            <li key={t}>
              <Link to={`/?tag=${encodeURIComponent(t)}`} className="tag tag--link">
                {t}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {monitor.description && <p className="mhead__description">{monitor.description}</p>}
      {monitor.paused && (
        <Notice title="Paused">No checks run and no alerts are sent until you resume it.</Notice>
      )}
      {failing && !monitor.paused && (
        <Notice
          tone={failing.outcome === 'down' ? 'danger' : 'warning'}
          title={errorLabel(failing.errorCode)}
        >
          {failing.errorMessage ?? 'The last check did not pass.'}
        </Notice>
      )}
    </header>
  );
}
