import type { Settings } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { channelListQuery } from '../../../notifications/api/queries';
import { useUpdateSettings } from '../../api/settings';

/**
 * Settings → General → System mail (ADR 34): the email channel that sends password resets,
 * invitations and email-change links.
 */
export function SystemMailPanel({ settings }: { settings: Settings }) {
  const channels = useQuery(channelListQuery());
  const save = useUpdateSettings();
  const current = settings.mail.systemChannelId;
  const [choice, setChoice] = useState(current === null ? '' : String(current));
  const [saved, setSaved] = useState(false);
  // `settings` follows the saved value, so a saved choice is no longer unsaved.
  const leave = useLeaveGuard(choice !== (current === null ? '' : String(current)));
  const emails = (channels.data?.items ?? []).filter((c) => c.kind === 'email');
  const missing = current !== null && channels.data && !emails.some((c) => c.id === current);
  return (
    <form
      className="panel stack-form"
      aria-labelledby="system-mail-title"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate(
          { mail: { systemChannelId: choice === '' ? null : Number(choice) } },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      {leave.guard}
      <h3 id="system-mail-title" className="panel__title">
        System mail
      </h3>
      <p className="panel__intro setting-note">
        Password reset links, invitations and email changes are sent through this email channel.
        Reset links also need the public URL below.
      </p>
      <Field
        name="systemChannelId"
        label="Send account mail through"
        hint={
          emails.length === 0 && channels.data ? (
            <>
              No email channel yet: <Link to="/notifications/new">add one</Link> under
              Notifications.
            </>
          ) : undefined
        }
      >
        {(p) => (
          <select
            {...p}
            className="input select"
            value={choice}
            onChange={(e) => {
              setSaved(false);
              setChoice(e.target.value);
            }}
          >
            <option value="">None: no account mail is sent</option>
            {emails.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
                {c.enabled ? '' : ' (disabled)'}
              </option>
            ))}
          </select>
        )}
      </Field>
      {missing && (
        <Notice tone="warning" title="The chosen channel is gone">
          Choose another email channel, or none.
        </Notice>
      )}
      {save.error && <ErrorNotice error={save.error} />}
      {saved && <Notice live title="System mail saved" />}
      <div className="stack-form__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
