import { BackupSettings, type BackupStatus } from '@pagewatch/contract';
import { useMemo, useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { isApiError } from '../../../../lib/api';
import { useSchemaForm } from '../../../../lib/use-schema-form';
import { useLeaveGuard } from '../../../../lib/leave-guard';
import { useSaveBackupSchedule } from '../../api/backup';

type Values = { enabled: string; intervalHours: string; folder: string; keep: string };

const whole = (v: string) => (v.trim() === '' ? undefined : Number(v));
const toInput = (v: Values) => ({
  enabled: v.enabled === 'yes',
  intervalHours: whole(v.intervalHours),
  folder: v.folder,
  keep: whole(v.keep),
});

function valuesOf(s: BackupSettings): Values {
  return {
    enabled: s.enabled ? 'yes' : '',
    intervalHours: String(s.intervalHours),
    folder: s.folder,
    keep: String(s.keep),
  };
}

/** On or off, how often, where to and how many: one settings group, saved whole. */
export function ScheduleForm({ status }: { status: BackupStatus }) {
  const save = useSaveBackupSchedule();
  const initial = useMemo(() => valuesOf(status.settings), [status.settings]);
  const form = useSchemaForm({ initial, schema: BackupSettings, toInput });
  const leave = useLeaveGuard(form.dirty);
  const [saved, setSaved] = useState(false);
  const on = form.values.enabled === 'yes';
  const otherError =
    save.error && !(isApiError(save.error) && save.error.fieldErrors.length) ? save.error : null;
  const defaultFolder = status.settings.folder === '' ? status.folder : null;
  return (
    <form
      ref={form.formRef}
      className="panel stack-form backup-schedule"
      aria-labelledby="schedule-title"
      noValidate
      onBlur={form.onBlur}
      onChange={() => setSaved(false)}
      onSubmit={form.handleSubmit((settings) => {
        setSaved(false);
        save.mutate(settings, {
          onSuccess: (next) => {
            form.reset(valuesOf(next.settings));
            setSaved(true);
          },
          onError: (e) => form.showServerErrors(e),
        });
      })}
    >
      {leave.guard}
      <h3 id="schedule-title" className="panel__title">
        Scheduled backups
      </h3>
      <p className="panel__intro">
        One process of the deployment writes a file into a folder on the server, then deletes the
        oldest beyond the number kept. Nothing else in the folder is touched.
      </p>
      <label className="backup-check">
        <input
          type="checkbox"
          name="enabled"
          checked={on}
          onChange={(e) => form.set('enabled', e.target.checked ? 'yes' : '')}
        />
        Back up on a schedule
      </label>
      <div className="backup-schedule__grid">
        <Field
          name="intervalHours"
          label="Every"
          hint="1–720 hours."
          error={form.errorFor('intervalHours')}
        >
          {(p) => (
            <span className="backup-unit-input">
              <input
                {...p}
                {...form.bind('intervalHours')}
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                disabled={!on}
              />
              <span className="backup-unit-input__unit">hours</span>
            </span>
          )}
        </Field>
        <Field
          name="keep"
          label="Keep"
          hint="The newest 1–1,000 files."
          error={form.errorFor('keep')}
        >
          {(p) => (
            <span className="backup-unit-input">
              <input
                {...p}
                {...form.bind('keep')}
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                disabled={!on}
              />
              <span className="backup-unit-input__unit">files</span>
            </span>
          )}
        </Field>
      </div>
      <Field
        name="folder"
        label="Folder on the server"
        optional
        hint={
          defaultFolder
            ? `Empty: ${defaultFolder} (in the data folder). Give an absolute path to write elsewhere, e.g. a mounted backup disk.`
            : 'An absolute path the server may write to. Empty: backups/ in the data folder.'
        }
        error={form.errorFor('folder')}
      >
        {(p) => (
          <input
            {...p}
            {...form.bind('folder')}
            className="input backup-schedule__folder"
            placeholder={status.folder}
            spellCheck={false}
            autoComplete="off"
            disabled={!on}
          />
        )}
      </Field>
      {form.serverOther.length > 0 && (
        <Notice live tone="danger" title="The schedule was not saved">
          {form.serverOther.join(' ')}
        </Notice>
      )}
      {otherError && <ErrorNotice error={otherError} />}
      {saved && <Notice live title="Schedule saved" />}
      <div className="stack-form__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save schedule
        </Button>
      </div>
    </form>
  );
}
