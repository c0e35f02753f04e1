import type { IncidentDetail } from '@pagewatch/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice } from '../../../components/ui/Notice';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../auth/api/session';
import { errorLabel } from '../../monitors/error-codes';
import { useDeleteIncident } from '../api/mutations';
import { EditIncidentDialog } from './EditIncidentDialog';
import { IncidentDuration, SeverityTag, StateBadge } from './IncidentBadges';
import { PostUpdateForm } from './PostUpdateForm';
import { ResolveDialog } from './ResolveDialog';
import { Timeline } from './Timeline';
import { EscalationPanel } from '../../escalation/components/EscalationPanel';
import { UnannouncedBanner } from '../../status-pages/components/UnannouncedBanner';

function Cause({ incident }: { incident: IncidentDetail }) {
  const cause = incident.cause;
  if (!cause) return null;
  const label = errorLabel(cause.code);
  return (
    <section className="panel icause" aria-labelledby="cause-heading">
      <h2 id="cause-heading" className="panel__title">
        Cause
      </h2>
      <p>
        First failing check at <time dateTime={cause.at}>{formatDateTime(cause.at)}</time>
        {label && (
          <>
            : <strong>{label}</strong> <code className="crow__raw">{cause.code}</code>
          </>
        )}
      </p>
      {cause.message && <p className="icause__message mono">{cause.message}</p>}
    </section>
  );
}

function Actions({ incident }: { incident: IncidentDetail }) {
  const navigate = useNavigate();
  const remove = useDeleteIncident(incident.id);
  const [resolving, setResolving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  return (
    <div className="actions__buttons">
      {incident.state !== 'resolved' && (
        <Button variant="primary" icon="checkCircle" onClick={() => setResolving(true)}>
          Resolve
        </Button>
      )}
      <Button icon="edit" onClick={() => setEditing(true)}>
        Edit
      </Button>
      <Button variant="ghost" icon="trash" onClick={() => setDeleting(true)}>
        Delete
      </Button>
      {editing && <EditIncidentDialog incident={incident} open onClose={() => setEditing(false)} />}
      <ResolveDialog incident={incident} open={resolving} onClose={() => setResolving(false)} />
      <ConfirmDialog
        open={deleting}
        title={`Delete “${incident.title}”?`}
        confirmLabel="Delete incident"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => void navigate('/incidents', { replace: true }),
          })
        }
      >
        The incident and its {incident.updates.length === 1 ? 'update' : 'updates'} are removed for
        good, also from status pages. Resolve it instead to keep the record.
      </ConfirmDialog>
    </div>
  );
}

/** One incident: what it is, what caused it, and its timeline with a form to add to it. */
export function IncidentScreen({ incident }: { incident: IncidentDetail }) {
  const canEdit = useCan('editor');
  return (
    <>
      <header className="mhead">
        <Link to="/incidents" className="back-link">
          <Icon name="chevronLeft" />
          Incidents
        </Link>
        <div className="mhead__top">
          <div className="mhead__title">
            <StateBadge state={incident.state} />
            <h1 className="page-title">{incident.title}</h1>
          </div>
          {canEdit && <Actions incident={incident} />}
        </div>
        <div className="mhead__meta">
          <SeverityTag severity={incident.severity} />
          <span>
            Started <time dateTime={incident.startedAt}>{formatDateTime(incident.startedAt)}</time>
          </span>
          {incident.resolvedAt && (
            <span>
              Resolved{' '}
              <time dateTime={incident.resolvedAt}>{formatDateTime(incident.resolvedAt)}</time>
            </span>
          )}
          <IncidentDuration incident={incident} />
          <span>{incident.automatic ? 'Opened automatically' : 'Declared by hand'}</span>
        </div>
        {incident.monitors.length > 0 && (
          <ul className="mhead__tags" aria-label="Affected monitors">
            {incident.monitors.map((m) => (
              <li key={m.id}>
                <Link to={`/monitors/${m.id}`} className="tag tag--link">
                  {m.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </header>
      {incident.automatic && incident.monitorId !== null && !incident.resolvedAt && (
        <EscalationPanel monitorId={incident.monitorId} since={incident.startedAt} />
      )}
      {!incident.resolvedAt && (
        <UnannouncedBanner
          className="section-gap"
          incidentId={incident.id}
          announced={incident.updates.some((u) => u.public)}
        />
      )}
      <div className={canEdit ? 'idetail idetail--edit' : 'idetail'}>
        <div className="idetail__main">
          <Cause incident={incident} />
          <section className="panel" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading" className="panel__title">
              Timeline
            </h2>
            <Timeline updates={incident.updates} />
          </section>
        </div>
        {canEdit && (
          <div className="idetail__side">
            <PostUpdateForm key={incident.state} incident={incident} />
          </div>
        )}
      </div>
    </>
  );
}
