import { MonitorBulkAction } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Field } from '../../../components/ui/Field';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { channelListQuery } from '../../notifications/api/queries';
import { splitList } from './form/form-values';

export type DialogKind = 'tag' | 'untag' | 'channels' | 'interval' | 'maintenance' | 'delete';

const titles: Record<DialogKind, (target: string) => string> = {
  tag: (t) => `Add tags to ${t}`,
  untag: (t) => `Remove tags from ${t}`,
  channels: (t) => `Set the alert channels of ${t}`,
  interval: (t) => `Set the check interval of ${t}`,
  maintenance: (t) => `Put ${t} in maintenance`,
  delete: (t) => `Delete ${t}?`,
};

const submitLabels: Record<DialogKind, string> = {
  tag: 'Add tags',
  untag: 'Remove tags',
  channels: 'Set channels',
  interval: 'Set interval',
  maintenance: 'Schedule window',
  delete: 'Delete monitors',
};

/** A local date-time input's value an hour from now, rounded to the minute. */
function localInput(offsetMs: number): string {
  const d = new Date(Date.now() + offsetMs);
  d.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The values each dialog asks for; the action is checked with the contract's own schema. */
function useValues() {
  const [tags, setTags] = useState('');
  const [interval, setIntervalText] = useState('60');
  const [channelIds, setChannelIds] = useState<number[]>([]);
  const [title, setTitle] = useState('Planned maintenance');
  const [startsAt, setStartsAt] = useState(() => localInput(3_600_000));
  const [endsAt, setEndsAt] = useState(() => localInput(7_200_000));
  return {
    tags,
    setTags,
    interval,
    setIntervalText,
    channelIds,
    setChannelIds,
    title,
    setTitle,
    startsAt,
    setStartsAt,
    endsAt,
    setEndsAt,
  };
}
type Values = ReturnType<typeof useValues>;

function actionOf(kind: DialogKind, v: Values): unknown {
  if (kind === 'tag' || kind === 'untag') return { kind, tags: splitList(v.tags) };
  if (kind === 'interval') return { kind, interval: Number(v.interval) };
  if (kind === 'channels') return { kind, channelIds: v.channelIds };
  if (kind === 'maintenance') {
    const iso = (local: string) => (local ? new Date(local).toISOString() : '');
    return {
      kind,
      title: v.title,
      timezone: browserZone(),
      schedule: { kind: 'once', startsAt: iso(v.startsAt), endsAt: iso(v.endsAt) },
    };
  }
  return { kind: 'delete' };
}

/** One dialog per bulk action that needs words, numbers or a confirmation first. */
export function BulkDialog({
  kind,
  target,
  busy,
  error,
  onCancel,
  onRun,
}: {
  kind: DialogKind | null;
  target: string;
  busy: boolean;
  error: Error | null;
  onCancel: () => void;
  onRun: (action: MonitorBulkAction) => void;
}) {
  const v = useValues();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = kind ?? 'tag';
  const submit = () => {
    const parsed = MonitorBulkAction.safeParse(actionOf(shown, v));
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[key === 'schedule' ? String(issue.path.at(-1)) : key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    onRun(parsed.data);
  };
  return (
    <FormDialog
      open={kind !== null}
      title={titles[shown](target)}
      submitLabel={submitLabels[shown]}
      tone={shown === 'delete' ? 'danger' : 'primary'}
      busy={busy}
      onCancel={() => {
        setErrors({});
        onCancel();
      }}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="dialog__body stack-fields">
        {(shown === 'tag' || shown === 'untag') && (
          <Field name="tags" label="Tags" hint="Separate tags with commas" error={errors.tags}>
            {(p) => (
              <input
                {...p}
                className="input"
                autoFocus
                value={v.tags}
                onChange={(e) => v.setTags(e.target.value)}
              />
            )}
          </Field>
        )}
        {shown === 'interval' && (
          <Field
            name="interval"
            label="Check every (seconds)"
            hint="Monitors whose timeout is not shorter are left alone and named."
            error={errors.interval}
          >
            {(p) => (
              <input
                {...p}
                className="input"
                type="number"
                min={10}
                max={86_400}
                autoFocus
                value={v.interval}
                onChange={(e) => v.setIntervalText(e.target.value)}
              />
            )}
          </Field>
        )}
        {shown === 'channels' && <ChannelChoice v={v} />}
        {shown === 'maintenance' && <MaintenanceFields v={v} errors={errors} />}
        {shown === 'delete' && (
          <p>
            This removes the monitors and their whole check history. It cannot be undone; pausing
            keeps the history. Monitors managed by configuration files are left alone.
          </p>
        )}
        {error && <ErrorNotice error={error} />}
      </div>
    </FormDialog>
  );
}

function ChannelChoice({ v }: { v: Values }) {
  const channels = useQuery(channelListQuery());
  const items = channels.data?.items ?? [];
  return (
    <fieldset className="alert-channels">
      <legend className="field__label">Alert through</legend>
      {items.map((c) => (
        <label key={c.id} className="check">
          <input
            type="checkbox"
            checked={v.channelIds.includes(c.id)}
            onChange={(e) =>
              v.setChannelIds(
                e.target.checked
                  ? [...v.channelIds, c.id]
                  : v.channelIds.filter((id) => id !== c.id),
              )
            }
          />
          {c.name}
        </label>
      ))}
      <p className="field__hint">
        {channels.isPending
          ? 'Loading channels…'
          : channels.error
            ? 'The channels could not be listed (only admins manage them).'
            : 'The ticked channels replace each monitor’s channels; none ticked: no alerts.'}
      </p>
    </fieldset>
  );
}

function MaintenanceFields({ v, errors }: { v: Values; errors: Record<string, string> }) {
  return (
    <>
      <Field name="title" label="Title" error={errors.title}>
        {(p) => (
          <input
            {...p}
            className="input"
            autoFocus
            value={v.title}
            onChange={(e) => v.setTitle(e.target.value)}
          />
        )}
      </Field>
      <Field
        name="startsAt"
        label="Starts"
        hint={`Your time zone: ${browserZone()}`}
        error={errors.startsAt}
      >
        {(p) => (
          <input
            {...p}
            className="input"
            type="datetime-local"
            value={v.startsAt}
            onChange={(e) => v.setStartsAt(e.target.value)}
          />
        )}
      </Field>
      <Field name="endsAt" label="Ends" error={errors.endsAt}>
        {(p) => (
          <input
            {...p}
            className="input"
            type="datetime-local"
            value={v.endsAt}
            onChange={(e) => v.setEndsAt(e.target.value)}
          />
        )}
      </Field>
    </>
  );
}
