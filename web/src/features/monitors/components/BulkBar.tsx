import type { MonitorBulkAction, MonitorBulkResult, MonitorSelection } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Notice } from '../../../components/ui/Notice';
import { formatCount, plural } from '../../../lib/format';
import { useBulkMonitors } from '../api/bulk';
import { BulkDialog, type DialogKind } from './BulkDialog';

const doneText: Record<MonitorBulkResult['action'], string> = {
  pause: 'Paused',
  resume: 'Resumed',
  delete: 'Deleted',
  tag: 'Tagged',
  untag: 'Untagged',
  channels: 'Set the channels of',
  interval: 'Set the interval of',
  maintenance: 'Put in a maintenance window:',
};

/** What happened, monitor by monitor: nothing skipped goes unmentioned. */
export function BulkOutcome({
  result,
  onClose,
}: {
  result: MonitorBulkResult;
  onClose: () => void;
}) {
  const partial = result.notFound.length + result.managed.length + result.refused.length > 0;
  return (
    <Notice
      live
      tone={partial ? 'warning' : 'info'}
      className="bulk__outcome"
      title={`${doneText[result.action]} ${plural(result.done.length, 'monitor')}.`}
      action={
        <Button size="sm" variant="ghost" onClick={onClose}>
          Dismiss
        </Button>
      }
    >
      {partial && (
        <ul className="bulk__skipped">
          {result.notFound.length > 0 && (
            <li data-testid="bulk-not-found">
              {plural(result.notFound.length, 'monitor was', 'monitors were')} deleted by someone
              else meanwhile (id {result.notFound.join(', ')}); nothing else was lost.
            </li>
          )}
          {result.managed.length > 0 && (
            <li data-testid="bulk-managed">
              {plural(result.managed.length, 'monitor is', 'monitors are')} managed by configuration
              files and {result.managed.length === 1 ? 'was' : 'were'} left alone (id{' '}
              {result.managed.join(', ')}).
            </li>
          )}
          {result.refused.map((r) => (
            <li key={r.id}>
              Monitor {r.id} was left alone: {r.reason}.
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

/**
 * The dashboard's bulk actions on the ticked rows, or on every monitor matching the filters
 * (counted by the server, most of them never loaded). Sticks under the filters while scrolling.
 */
export function BulkBar({
  count,
  allMatching,
  matching,
  selection,
  onSelectAll,
  onClear,
  onDone,
}: {
  count: number;
  allMatching: boolean;
  /** Monitors matching the filters on the server. */
  matching: number;
  selection: () => MonitorSelection;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: (result: MonitorBulkResult) => void;
}) {
  const bulk = useBulkMonitors();
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const run = (action: MonitorBulkAction) =>
    bulk.mutate(
      { selection: selection(), action },
      {
        onSuccess: (result) => {
          setDialog(null);
          onDone(result);
        },
      },
    );
  const none = count === 0 && !allMatching;
  const target = allMatching
    ? `all ${formatCount(matching)} matching`
    : plural(count, 'selected monitor');
  return (
    <div
      className={none ? 'bulk bulk--idle' : 'bulk bulk--active'}
      role="region"
      aria-label="Bulk actions"
    >
      <p className="bulk__count" aria-live="polite">
        {none ? (
          <span className="muted">Tick monitors to act on many at once, or</span>
        ) : (
          <>
            <strong>{allMatching ? `All ${formatCount(matching)}` : formatCount(count)}</strong>{' '}
            selected
          </>
        )}
        {!allMatching && matching > count && (
          <Button size="sm" variant="ghost" onClick={onSelectAll}>
            Select all {formatCount(matching)} matching this filter
          </Button>
        )}
        {!none && (
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear
          </Button>
        )}
      </p>
      <fieldset className="bulk__actions" disabled={none}>
        <legend className="visually-hidden">Actions on the selected monitors</legend>
        <Button size="sm" busy={bulk.isPending && !dialog} onClick={() => run({ kind: 'pause' })}>
          Pause
        </Button>
        <Button size="sm" onClick={() => run({ kind: 'resume' })} disabled={bulk.isPending}>
          Resume
        </Button>
        <Button size="sm" onClick={() => setDialog('tag')}>
          Tag…
        </Button>
        <Button size="sm" onClick={() => setDialog('untag')}>
          Untag…
        </Button>
        <Button size="sm" onClick={() => setDialog('channels')}>
          Channels…
        </Button>
        <Button size="sm" onClick={() => setDialog('interval')}>
          Interval…
        </Button>
        <Button size="sm" onClick={() => setDialog('maintenance')}>
          Maintenance…
        </Button>
        <Button size="sm" variant="danger" icon="trash" onClick={() => setDialog('delete')}>
          Delete…
        </Button>
      </fieldset>
      {bulk.error && !dialog && (
        <Notice live tone="danger" title="The action did not run">
          {bulk.error.message}
        </Notice>
      )}
      <BulkDialog
        kind={dialog}
        target={target}
        busy={bulk.isPending}
        error={bulk.error}
        onCancel={() => {
          bulk.reset();
          setDialog(null);
        }}
        onRun={run}
      />
    </div>
  );
}
