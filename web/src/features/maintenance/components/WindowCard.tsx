import type { MaintenanceWindow } from '@pagewatch/contract';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { formatInstantIn, formatRangeIn } from '../../../lib/format';
import { describeSchedule, describeScope } from '../describe';

const stateLabel: Record<MaintenanceWindow['state'], string> = {
  active: 'Active',
  scheduled: 'Scheduled',
  ended: 'Ended',
  cancelled: 'Cancelled',
};

/** One window: what, which monitors, when next, and (for editors) what can be done to it. */
export function WindowCard({
  window: w,
  names,
  canEdit,
  onEdit,
  onCancel,
  onDelete,
}: {
  window: MaintenanceWindow;
  names: ReadonlyMap<number, string>;
  canEdit: boolean;
  onEdit: (w: MaintenanceWindow) => void;
  onCancel: (w: MaintenanceWindow) => void;
  onDelete: (w: MaintenanceWindow) => void;
}) {
  const next = w.nextOccurrences.find((o) => Date.parse(o.startsAt) > Date.now());
  const live = w.state === 'active' || w.state === 'scheduled';
  return (
    <li className={`mw-card mw-card--${w.state}`} aria-labelledby={`mw-${w.id}-title`}>
      <div className="mw-card__main">
        <div className="mw-card__head">
          <h3 id={`mw-${w.id}-title`} className="mw-card__title">
            {w.title}
          </h3>
          <span className={`mw-state mw-state--${w.state}`}>
            <Icon
              name={
                w.state === 'active'
                  ? 'wrench'
                  : w.state === 'scheduled'
                    ? 'clock'
                    : w.state === 'ended'
                      ? 'check'
                      : 'x'
              }
              size={13}
            />
            {stateLabel[w.state]}
          </span>
        </div>
        {w.description && <p className="mw-card__description">{w.description}</p>}
        <dl className="mw-card__facts">
          <div>
            <dt>Monitors</dt>
            <dd>{describeScope(w.scope, names)}</dd>
          </div>
          <div>
            <dt>Schedule</dt>
            <dd>
              {describeSchedule(w.schedule)} <span className="muted">({w.timezone})</span>
            </dd>
          </div>
          {w.schedule.kind === 'once' ? (
            <div>
              <dt>When</dt>
              <dd>
                <time dateTime={w.schedule.startsAt}>
                  {formatRangeIn(w.schedule.startsAt, w.schedule.endsAt, w.timezone)}
                </time>
              </dd>
            </div>
          ) : (
            <>
              {w.state === 'active' && w.activeUntil && (
                <div>
                  <dt>Until</dt>
                  <dd>
                    <time dateTime={w.activeUntil}>
                      {formatInstantIn(w.activeUntil, w.timezone)}
                    </time>
                  </dd>
                </div>
              )}
              {next && (
                <div>
                  <dt>{w.state === 'active' ? 'Then' : 'Next'}</dt>
                  <dd>
                    <time dateTime={next.startsAt}>
                      {formatRangeIn(next.startsAt, next.endsAt, w.timezone)}
                    </time>
                  </dd>
                </div>
              )}
            </>
          )}
        </dl>
      </div>
      {canEdit && (
        <div className="mw-card__actions">
          {w.state !== 'cancelled' && (
            <Button size="sm" icon="edit" onClick={() => onEdit(w)} aria-label={`Edit ${w.title}`}>
              Edit
            </Button>
          )}
          {live && (
            <Button
              size="sm"
              icon="x"
              onClick={() => onCancel(w)}
              aria-label={`Cancel window ${w.title}`}
            >
              {/* Not a bare "Cancel": beside Edit it read as closing something, not ending the window. */}
              Cancel window
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            icon="trash"
            onClick={() => onDelete(w)}
            aria-label={`Delete ${w.title}`}
          >
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}
