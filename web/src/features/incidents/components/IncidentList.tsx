import type { Incident } from '@pagewatch/contract';
import { Link } from 'react-router';
import { formatDateTime, formatShortDateTime } from '../../../lib/format';
import { IncidentDuration, SeverityTag, StateBadge } from './IncidentBadges';

function MonitorsLine({ incident }: { incident: Incident }) {
  if (incident.monitors.length === 0) {
    return incident.automatic ? <span className="muted">Monitor deleted</span> : null;
  }
  const [first, ...rest] = incident.monitors;
  return (
    <span className="irow__monitors">
      {first!.name}
      {rest.length > 0 && ` and ${rest.length} more`}
    </span>
  );
}

/** One incident as a row: state, title and what it affects, when it started and how long. */
function IncidentRow({ incident, picking }: { incident: Incident; picking?: Picking | undefined }) {
  return (
    <li
      className={`irow ${incident.resolvedAt ? '' : 'irow--open'} ${picking ? 'irow--pick' : ''}`}
      data-testid="incident-row"
      data-state={incident.state}
    >
      {picking && (
        <input
          type="checkbox"
          className="irow__check"
          checked={picking.selected.has(incident.id)}
          disabled={incident.resolvedAt !== null}
          aria-label={`Select ${incident.title}`}
          onChange={() => picking.toggle(incident.id)}
        />
      )}
      <div className="irow__state">
        <StateBadge state={incident.state} />
      </div>
      <div className="irow__main">
        <Link to={`/incidents/${incident.id}`} className="irow__title row-link">
          {incident.title}
        </Link>
        <span className="irow__meta">
          <SeverityTag severity={incident.severity} />
          <MonitorsLine incident={incident} />
          {incident.automatic && <span className="muted">Opened automatically</span>}
        </span>
      </div>
      <div className="irow__when">
        <span>
          Started{' '}
          <time dateTime={incident.startedAt} title={formatDateTime(incident.startedAt)}>
            {formatShortDateTime(incident.startedAt)}
          </time>
        </span>
        <IncidentDuration incident={incident} />
      </div>
    </li>
  );
}

/** Ticked incidents for a bulk resolve; resolved ones cannot be ticked. */
export interface Picking {
  selected: ReadonlySet<number>;
  toggle: (id: number) => void;
}

export function IncidentList({
  incidents,
  label,
  picking,
}: {
  incidents: Incident[];
  label: string;
  picking?: Picking;
}) {
  return (
    <ul className="ilist" aria-label={label}>
      {incidents.map((i) => (
        <IncidentRow key={i.id} incident={i} picking={picking} />
      ))}
    </ul>
  );
}
