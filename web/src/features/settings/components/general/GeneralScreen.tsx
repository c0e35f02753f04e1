import { GeneralSettings, type Settings } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { TimeZonePicker } from '../../../../components/ui/TimeZonePicker';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { useMe } from '../../../auth/api/session';
import { settingsQuery, useUpdateSettings } from '../../api/settings';
import { withinGroup } from '../../group-errors';
import { DangerZone } from './DangerZone';
import { RdapBootstrapPanel } from './RdapBootstrapPanel';
import { SystemMailPanel } from './SystemMailPanel';

function GeneralForm({ settings }: { settings: Settings }) {
  const save = useUpdateSettings();
  const initial = useMemo(() => ({ ...settings.general }), [settings.general]);
  const form = useSchemaForm({ initial, schema: GeneralSettings });
  const leave = useLeaveGuard(form.dirty);
  const [saved, setSaved] = useState(false);
  const otherError =
    save.error && !(isApiError(save.error) && save.error.fieldErrors.length) ? save.error : null;
  return (
    <form
      ref={form.formRef}
      className="panel stack-form"
      aria-labelledby="general-title"
      noValidate
      onBlur={form.onBlur}
      onChange={() => setSaved(false)}
      onSubmit={form.handleSubmit((general) => {
        setSaved(false);
        save.mutate(
          { general },
          {
            // What was typed stays in the form when the save fails.
            onSuccess: (next) => {
              form.reset({ ...next.general });
              setSaved(true);
            },
            onError: (e) => form.showServerErrors(withinGroup(e, 'general')),
          },
        );
      })}
    >
      {leave.guard}
      <h3 id="general-title" className="panel__title">
        Instance
      </h3>
      <Field
        name="instanceName"
        label="Instance name"
        hint="What this instance is called; typed out to confirm deleting all data."
        error={form.errorFor('instanceName')}
      >
        {(p) => <input {...p} className="input" maxLength={100} {...form.bind('instanceName')} />}
      </Field>
      <Field
        name="timeZone"
        label="Display time zone"
        hint="Dates and times in lists and details show in this zone for everyone; charts use each browser’s own. Current IANA names, such as Europe/Kyiv or Asia/Kolkata."
        error={form.errorFor('timeZone')}
      >
        {(p) => (
          <TimeZonePicker
            {...p}
            value={form.values.timeZone}
            onChange={(zone) => form.set('timeZone', zone)}
          />
        )}
      </Field>
      {otherError && <ErrorNotice error={otherError} />}
      {saved && <Notice live title="Settings saved" />}
      <div className="stack-form__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** Where people reach Pagewatch: fixed by the environment, shown here with how to change it. */
function PublicUrl({ url }: { url: string | null }) {
  return (
    <section className="panel" aria-labelledby="public-url-title">
      <h3 id="public-url-title" className="panel__title">
        Public URL
      </h3>
      {url ? (
        <p className="setting-value">
          <code>{url}</code>
        </p>
      ) : (
        <p className="setting-value setting-value--none">Not set</p>
      )}
      <p className="panel__intro setting-note">
        Set with <code>PAGEWATCH_PUBLIC_URL</code> where the server starts (see the configuration
        docs); a restart applies a change. It is the address in notification links and push URLs,
        and browser checks never load it.
        {!url &&
          ' Without it, notifications carry no links and push URLs use this browser’s address.'}
      </p>
    </section>
  );
}

/**
 * Settings → General: name, time zone, system mail, public URL, the RDAP bootstrap file; the
 * owner's danger zone below.
 */
export function GeneralScreen() {
  const me = useMe();
  const { data, error, isPending } = useQuery(settingsQuery());
  const [newOwner, setNewOwner] = useState<string | null>(null);
  if (isPending) return <LoadingBlock label="Loading settings" />;
  if (error) return <ErrorNotice error={error} />;
  return (
    <div className="settings-stack">
      <GeneralForm settings={data} />
      <SystemMailPanel settings={data} />
      <PublicUrl url={data.environment.publicUrl} />
      <RdapBootstrapPanel />
      {newOwner && (
        <Notice live title="Ownership transferred">
          {newOwner} is the owner now; you are an admin.
        </Notice>
      )}
      {me.role === 'owner' && (
        <DangerZone instanceName={data.general.instanceName} onTransferred={setNewOwner} />
      )}
    </div>
  );
}
