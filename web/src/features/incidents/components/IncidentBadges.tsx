import {
  formatDuration,
  type Incident,
  type IncidentSeverity,
  type IncidentState,
} from '@pagewatch/contract';
import { Icon } from '../../../components/ui/Icon';
import { useNow } from '../../../lib/now';
import { severityLabel, stateMeta } from '../labels';

/** State as icon and word, coloured by whether the incident is still open. */
export function StateBadge({ state }: { state: IncidentState }) {
  const meta = stateMeta[state];
  return (
    <span className={`istate istate--${state}`} data-state={state}>
      <Icon name={meta.icon} size={14} />
      {meta.label}
    </span>
  );
}

export function SeverityTag({ severity }: { severity: IncidentSeverity }) {
  return (
    <span className={`isev isev--${severity}`} data-severity={severity}>
      {severityLabel[severity]}
    </span>
  );
}

/** "Lasted 4 min 12 s" once resolved; "Ongoing for 12 min" while open, kept current. */
export function IncidentDuration({ incident }: { incident: Incident }) {
  const now = useNow();
  const started = Date.parse(incident.startedAt);
  if (incident.resolvedAt) {
    return <span>Lasted {formatDuration(Date.parse(incident.resolvedAt) - started)}</span>;
  }
  return (
    <span className="text-down">Ongoing for {formatDuration(Math.max(0, now - started))}</span>
  );
}
