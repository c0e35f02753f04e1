import type { MaintenanceState, MaintenanceWindow } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { maintenanceListQuery, useCancelWindow, useDeleteWindow } from '../api/maintenance';
import { emptyValues, valuesFromWindow, type WindowValues } from '../form-values';
import { ManagedByConfig } from '../../config/ManagedByConfig';
import { MaintenanceForm } from './MaintenanceForm';
import { WindowCard } from './WindowCard';
import { leaveScreen } from '../../../lib/leave-guard';

const groups: { state: MaintenanceState; title: string }[] = [
  { state: 'active', title: 'Active now' },
  { state: 'scheduled', title: 'Scheduled' },
  { state: 'ended', title: 'Ended' },
  { state: 'cancelled', title: 'Cancelled' },
];

type Editing = { window: MaintenanceWindow | null; initial: WindowValues };

/** Maintenance windows by state, with the form to create or change one. */
export function MaintenanceScreen() {
  const me = useMe();
  const canEdit = atLeast(me.role, 'editor');
  const list = useQuery(maintenanceListQuery());
  const monitors = useQuery(monitorNamesQuery());
  const names = useMemo(
    () => new Map((monitors.data?.items ?? []).map((m) => [m.id, m.name])),
    [monitors.data],
  );
  const [editing, setEditing] = useState<Editing | null>(null);
  const [cancelling, setCancelling] = useState<MaintenanceWindow | null>(null);
  const [deleting, setDeleting] = useState<MaintenanceWindow | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const cancel = useCancelWindow();
  const remove = useDeleteWindow();
  const items = list.data?.items;

  if (editing) {
    const title = editing.window ? `Edit “${editing.window.title}”` : 'New maintenance window';
    const form = (
      <MaintenanceForm
        initial={editing.initial}
        editing={editing.window}
        onCancel={() => leaveScreen(() => setEditing(null))}
        onSaved={(w) => {
          setEditing(null);
          setDone(`Saved “${w.title}”.`);
        }}
      />
    );
    return (
      <>
        <title>{`${title} · Pagewatch`}</title>
        <button
          type="button"
          className="back-link linklike"
          onClick={() => leaveScreen(() => setEditing(null))}
        >
          <Icon name="chevronLeft" />
          Maintenance
        </button>
        <h1 className="page-title">{title}</h1>
        <p className="page-sub">
          While a window is active its monitors keep being checked and recorded, show “Maintenance”,
          and raise no incidents or alerts.
        </p>
        {editing.window ? (
          <ManagedByConfig kind="maintenance" id={editing.window.id}>
            {form}
          </ManagedByConfig>
        ) : (
          form
        )}
      </>
    );
  }

  return (
    <>
      <title>Maintenance · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Maintenance</h1>
          <p className="page-sub">
            Planned work: monitors in an active window show “Maintenance” and raise no alerts.
          </p>
        </div>
        {canEdit && (
          <Button
            variant="primary"
            icon="plus"
            onClick={() => {
              setDone(null);
              setEditing({ window: null, initial: emptyValues() });
            }}
          >
            New window
          </Button>
        )}
      </div>
      <p className="visually-hidden" role="status">
        {done ?? ''}
      </p>
      {done && <Notice title={done} className="section-gap" />}
      {list.isPending && <LoadingBlock label="Loading maintenance windows…" rows={3} />}
      {list.error && (
        <ErrorNotice
          error={list.error}
          action={
            <Button size="sm" busy={list.isRefetching} onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {items && items.length === 0 && (
        <EmptyState icon="wrench" title="No maintenance windows">
          Plan one-off work or a recurring slot (every Sunday at 02:00, or any cron or RRULE rule)
          so its monitors stay quiet while you work.
        </EmptyState>
      )}
      {items &&
        groups.map(({ state, title }) => {
          const inGroup = items.filter((w) => w.state === state);
          if (inGroup.length === 0) return null;
          return (
            <section key={state} className="section mw-group" aria-labelledby={`mw-group-${state}`}>
              <h2 id={`mw-group-${state}`} className="mw-group__title">
                {title} <span className="mw-group__count">{inGroup.length}</span>
              </h2>
              <ul className="mw-list">
                {inGroup.map((w) => (
                  <WindowCard
                    key={w.id}
                    window={w}
                    names={names}
                    canEdit={canEdit}
                    onEdit={(win) => {
                      setDone(null);
                      setEditing({ window: win, initial: valuesFromWindow(win) });
                    }}
                    onCancel={(win) => {
                      cancel.reset();
                      setCancelling(win);
                    }}
                    onDelete={(win) => {
                      remove.reset();
                      setDeleting(win);
                    }}
                  />
                ))}
              </ul>
            </section>
          );
        })}
      <ConfirmDialog
        open={cancelling !== null}
        title={`Cancel “${cancelling?.title ?? ''}”?`}
        confirmLabel="Cancel window"
        tone="danger"
        busy={cancel.isPending}
        error={cancel.error ? <ErrorNotice error={cancel.error} /> : undefined}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          if (!cancelling) return;
          const { id, title } = cancelling;
          cancel.mutate(id, {
            onSuccess: () => {
              setCancelling(null);
              setDone(`Cancelled “${title}”. Its monitors show their real status again.`);
            },
          });
        }}
      >
        {cancelling?.state === 'active'
          ? 'The window ends now and no further occurrences happen. Its monitors can raise alerts again.'
          : 'No occurrence of this window will happen. It stays in the list as cancelled.'}
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete window"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const { id, title } = deleting;
          remove.mutate(id, {
            onSuccess: () => {
              setDeleting(null);
              setDone(`Deleted “${title}”.`);
            },
          });
        }}
      >
        The window and its schedule are removed for good
        {deleting?.state === 'active' ? '; its monitors leave maintenance now' : ''}. The checks
        recorded during it stay in their history.
      </ConfirmDialog>
    </>
  );
}
