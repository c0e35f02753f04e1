import '../../styles/config.css';
import type { ConfigKind } from '@pagewatch/contract';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/ui/Notice';
import { useCan } from '../auth/api/session';
import { useDetach, useDrift, useManagedKey } from './api';
import { DriftChanges } from './DriftList';

const noun: Record<ConfigKind, string> = {
  channels: 'channel',
  monitors: 'monitor',
  statusPages: 'status page',
  maintenance: 'maintenance window',
  slos: 'SLO',
};

interface ManagedProps {
  kind: ConfigKind;
  id: number;
  /** The form: read-only while configuration files manage the resource. */
  children: ReactNode;
  /**
   * Leaves a form shown in place (not on a page of its own): the form's own Cancel sits in the
   * disabled fieldset with everything else, so a managed form needs a way out of its own.
   */
  onClose?: () => void;
}

/**
 * A resource applied from configuration files (docs/config-as-code.md) is changed in those files:
 * its form is shown read-only under a notice, with an admin's way to take it back into the UI.
 */
export function ManagedByConfig({ kind, id, children, onClose }: ManagedProps) {
  const key = useManagedKey(kind, id);
  const drift = useDrift(kind, key);
  const canDetach = useCan('admin');
  const detach = useDetach();
  const [asking, setAsking] = useState(false);
  if (key === null) return <>{children}</>;
  return (
    <>
      <Notice
        title="Managed by config"
        className="managed-notice"
        action={
          canDetach && (
            <Button size="sm" onClick={() => setAsking(true)}>
              Detach from config
            </Button>
          )
        }
      >
        This {noun[kind]} is applied from configuration files under the key <code>{key}</code>.
        Change it there and run <code>npx pagewatch apply</code>; the form below is read-only.
        {drift && (
          <div className="managed-notice__drift" data-testid="managed-drift">
            <p>
              Changed here since the last apply (the next apply of unchanged files undoes it; copy
              it into the files to keep it):
            </p>
            <DriftChanges changes={drift.changes} />
          </div>
        )}
      </Notice>
      <fieldset disabled className="managed-form" aria-label="Read-only: managed by config">
        {children}
      </fieldset>
      {onClose && (
        <div className="button-row">
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking}
        title={`Detach this ${noun[kind]} from config?`}
        confirmLabel="Detach"
        busy={detach.isPending}
        error={detach.error ? <ErrorNotice error={detach.error} /> : undefined}
        onCancel={() => setAsking(false)}
        onConfirm={() => detach.mutate({ kind, id }, { onSuccess: () => setAsking(false) })}
      >
        It becomes editable here, keeping its history. Remove <code>{key}</code> from the files too:
        an apply that still names it takes it back.
      </ConfirmDialog>
    </>
  );
}
