import type { Monitor } from '@pagewatch/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { useCheckNow, useDeleteMonitor, usePauseMonitor } from '../api/mutations';
import { displayOf } from '../kinds/display';

/** Pause/resume, check now, edit and delete, each with its own error shown beside the buttons. */
export function MonitorActions({ monitor }: { monitor: Monitor }) {
  const navigate = useNavigate();
  const pause = usePauseMonitor(monitor.id);
  const checkNow = useCheckNow(monitor.id);
  const remove = useDeleteMonitor(monitor.id);
  const [confirming, setConfirming] = useState(false);
  const [queued, setQueued] = useState(false);

  useEffect(() => {
    if (!queued) return;
    const timer = setTimeout(() => setQueued(false), 4000);
    return () => clearTimeout(timer);
  }, [queued]);

  const failed = pause.error ?? checkNow.error;
  return (
    <div className="actions">
      <div className="actions__buttons">
        {!displayOf(monitor).passive && (
          <Button
            icon="refresh"
            busy={checkNow.isPending}
            disabled={monitor.paused}
            title={monitor.paused ? 'Resume the monitor to run checks' : undefined}
            onClick={() => {
              pause.reset();
              checkNow.mutate(undefined, { onSuccess: () => setQueued(true) });
            }}
          >
            Check now
          </Button>
        )}
        <Button
          icon={monitor.paused ? 'play' : 'pause'}
          busy={pause.isPending}
          onClick={() => {
            checkNow.reset();
            pause.mutate(!monitor.paused);
          }}
        >
          {monitor.paused ? 'Resume' : 'Pause'}
        </Button>
        <ButtonLink to={`/monitors/${monitor.id}/edit`} icon="edit">
          Edit
        </ButtonLink>
        <ButtonLink to={`/monitors/${monitor.id}/clone`} icon="copy">
          Clone
        </ButtonLink>
        <Button
          variant="danger"
          icon="trash"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          Delete
        </Button>
      </div>
      <p className="actions__status" role="status">
        {queued ? 'Check queued; the result appears below in a moment.' : ''}
      </p>
      {failed && <ErrorNotice error={failed} className="actions__error" />}
      <ConfirmDialog
        open={confirming}
        title={`Delete “${monitor.name}”?`}
        confirmLabel="Delete monitor"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              void navigate('/', { replace: true });
            },
          })
        }
      >
        This removes the monitor and its whole check history. It cannot be undone; pausing keeps the
        history.
      </ConfirmDialog>
    </div>
  );
}
