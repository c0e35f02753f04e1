import type { Slo } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { useMe } from '../../auth/api/session';
import { ManagedByConfig } from '../../config/ManagedByConfig';
import { atLeast } from '../../auth/roles';
import { sloListQuery, useDeleteSlo } from '../api/slos';
import { SloForm } from './SloForm';
import { HealthChip, SloFigures } from './SloFigures';

/** Service level objectives (ADR 52): each promise with its budget, burn rate and health. */
export function SlosScreen() {
  const me = useMe();
  const canEdit = atLeast(me.role, 'editor');
  const list = useQuery(sloListQuery());
  const remove = useDeleteSlo();
  const [editing, setEditing] = useState<Slo | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Slo | null>(null);
  const items = list.data?.items ?? [];
  return (
    <>
      <title>SLOs · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">SLOs</h1>
          <p className="page-sub">
            Promises on availability: how much of each error budget is left and how fast it burns.
          </p>
        </div>
        {canEdit && editing === null && (
          <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
            New SLO
          </Button>
        )}
      </div>
      {editing === 'new' && <SloForm slo={null} onDone={() => setEditing(null)} />}
      {editing !== null && editing !== 'new' && (
        // An SLO applied from configuration files is changed there (ADR 74).
        <ManagedByConfig kind="slos" id={editing.id} onClose={() => setEditing(null)}>
          <SloForm slo={editing} onDone={() => setEditing(null)} />
        </ManagedByConfig>
      )}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {items.length === 0 && !list.isPending && editing === null && (
        <p className="muted section-gap">
          No SLOs yet. {canEdit ? 'Set one on a monitor, a tag or a status page component.' : ''}
        </p>
      )}
      <ul className="slo-list section-gap" aria-label="SLOs">
        {items.map((slo) => (
          <li key={slo.id} className="panel slo-item" aria-label={slo.name}>
            <div className="slo-item__head">
              <div>
                <h2 className="panel__title">{slo.name}</h2>
                <p className="muted">{slo.subjectLabel}</p>
              </div>
              <HealthChip slo={slo} />
            </div>
            <SloFigures slo={slo} />
            {canEdit && (
              <div className="actions__buttons">
                <Button size="sm" onClick={() => setEditing(slo)}>
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setDeleting(slo)}>
                  Delete
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete SLO"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })
        }
        onCancel={() => setDeleting(null)}
      >
        Its figures and burn-rate alerts stop; the checks it counted stay.
      </ConfirmDialog>
    </>
  );
}
