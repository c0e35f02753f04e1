import {
  ChannelCreateInput,
  ChannelUpdateInput,
  type NotificationChannel,
} from '@pagewatch/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { api, isApiError } from '../../../lib/api';
import { differs, useLeaveGuard } from '../../../lib/leave-guard';
import { plural } from '../../../lib/format';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';
import { coverageQuery, useTestChannelSettings } from '../api/coverage';
import { useSaveChannel } from '../api/mutations';
import { channelListQuery } from '../api/queries';
import {
  emptyChannel,
  fromChannel,
  kindOptions,
  toChannelInput,
  type ChannelValues,
} from '../form-values';
import { channelKindSpecs, templatePlaceholders } from '../kinds';
import { KindFields } from './KindFields';
import { QuietHoursFields } from './QuietHoursFields';
import { TestResultNotice } from './TestResultNotice';

/** "config.to.0" and "config.headers.1.name" belong to the field "config.to" / "config.headers". */
function fieldOf(path: readonly PropertyKey[]): string {
  const [head, second] = path.map(String);
  if (head === 'config' || head === 'secrets' || head === 'template')
    return second ? `${head}.${second}` : head;
  return head ?? '';
}

const humanise = (m: string) => (m.startsWith('Invalid input') ? 'This value is not valid' : m);

function errorMap(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const i of issues) errors[fieldOf(i.path)] ??= humanise(i.message);
  return errors;
}

interface ChannelFormProps {
  channel: NotificationChannel | null;
  onSaved: (channel: NotificationChannel) => void;
  /** Shown in a dialog over another form: Cancel closes it, and that form guards leaving. */
  onCancel?: () => void;
}

/** Create or edit a channel; the kind's fields come from its table, checked by the contract. */
export function ChannelForm({ channel, onSaved, onCancel }: ChannelFormProps) {
  const [initial] = useState<ChannelValues>(() =>
    channel ? fromChannel(channel) : emptyChannel(),
  );
  const [v, setValues] = useState<ChannelValues>(initial);
  const leave = useLeaveGuard(differs(v, initial));
  const test = useTestChannelSettings(channel?.id ?? null);
  const client = useQueryClient();
  // The first channel: offer to make it the default and to attach it to every monitor.
  const existing = useQuery({ ...channelListQuery(), enabled: channel === null });
  // Any other channel may be the fallback; the server refuses one that leads back here (ADR 62).
  const others = useQuery(channelListQuery()).data?.items.filter((c) => c.id !== channel?.id);
  const fallbackOptions = [
    { value: '', label: 'None' },
    ...(others ?? []).map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const coverage = useQuery({ ...coverageQuery(), enabled: channel === null });
  const first = channel === null && existing.data?.items.length === 0;
  const monitorCount = coverage.data?.monitors ?? 0;
  const [offer, setOffer] = useState({ makeDefault: true, attachAll: true });
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Record<string, string>>({});
  const save = useSaveChannel(channel?.id ?? null);
  // Same kind on edit: secrets may be left out. A new kind needs all of its own.
  const schema = channel && channel.kind === v.kind ? ChannelUpdateInput : ChannelCreateInput;
  const local = useMemo(() => {
    const parsed = schema.safeParse(toChannelInput(v));
    return parsed.success ? {} : errorMap(parsed.error.issues);
  }, [schema, v]);
  const errorFor = (key: string) => server[key] ?? (submitted ? local[key] : undefined);
  const patch = (p: Partial<ChannelValues>, keys: string[]) => {
    setValues((old) => ({ ...old, ...p }));
    setServer((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  };
  const setField = (key: string, value: string | boolean) =>
    setValues((old) => {
      setServer((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)));
      return { ...old, fields: { ...old.fields, [key]: value } };
    });

  /** True when the form passes the contract; else its first wrong field gets focus. */
  const checked = () => {
    setSubmitted(true);
    setServer({});
    if (Object.keys(local).length === 0) return true;
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('.channel-form [aria-invalid="true"]')?.focus(),
    );
    return false;
  };
  const showServerErrors = (error: Error) => {
    if (isApiError(error) && error.fieldErrors.length > 0)
      setServer(errorMap(error.fieldErrors.map((e) => ({ ...e, path: e.path.split('.') }))));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // In a dialog over the monitor form: this submit is not that form's.
    event.stopPropagation();
    if (!checked()) return;
    const input = toChannelInput(v);
    if (first && offer.makeDefault) input.isDefault = true;
    save.mutate(input, {
      onSuccess: (saved) => {
        const done = () => {
          void client.invalidateQueries({ queryKey: ['monitors'] });
          leave.allowLeave();
          onSaved(saved);
        };
        if (!(first && offer.attachAll && monitorCount > 0)) return done();
        // The channel is saved either way; the notifications screen counts what stays bare.
        api(`/notification-channels/${saved.id}/attach`, {
          method: 'POST',
          body: { scope: 'all' },
        }).then(done, done);
      },
      onError: showServerErrors,
    });
  };

  const sendTest = () => {
    if (checked()) test.mutate(toChannelInput(v), { onError: showServerErrors });
  };

  const shownErrors = Object.keys(submitted ? { ...local, ...server } : server).length;
  const spec = channelKindSpecs[v.kind];
  return (
    <form className="form channel-form" noValidate onSubmit={onSubmit}>
      {!onCancel && leave.guard}
      <fieldset className="form__section">
        <legend className="form__legend">Channel</legend>
        <div className="form__grid">
          <SelectField
            name="kind"
            label="Kind"
            error={errorFor('kind')}
            hint={spec.blurb}
            value={v.kind}
            options={kindOptions}
            onChange={(kind) =>
              setValues((old) => ({
                ...emptyChannel(kind),
                name: old.name,
                isDefault: old.isDefault,
                enabled: old.enabled,
                templateTitle: old.templateTitle,
                templateBody: old.templateBody,
                fallbackChannelId: old.fallbackChannelId,
                failThreshold: old.failThreshold,
                secretsSet: channel?.kind === kind ? channel.secretsSet : [],
              }))
            }
          />
          <TextInputField
            name="name"
            label="Name"
            error={errorFor('name')}
            kind="text"
            input={{
              value: v.name,
              placeholder: 'e.g. On-call phones',
              onChange: (e) => patch({ name: e.target.value }, ['name']),
            }}
          />
        </div>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">{spec.label} settings</legend>
        <KindFields values={v} setField={setField} errorFor={errorFor} />
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Message</legend>
        <TextInputField
          name="template.title"
          label="Title template"
          optional
          error={errorFor('template.title')}
          hint="Empty uses the default title."
          kind="text"
          input={{
            value: v.templateTitle,
            placeholder: '{{monitor.name}} is {{status}}',
            onChange: (e) => patch({ templateTitle: e.target.value }, ['template.title']),
          }}
        />
        <Field
          name="template.body"
          label="Body template"
          optional
          error={errorFor('template.body')}
          hint="Empty uses the default message."
        >
          {(p) => (
            <textarea
              {...p}
              className="input"
              rows={3}
              value={v.templateBody}
              onChange={(e) => patch({ templateBody: e.target.value }, ['template.body'])}
            />
          )}
        </Field>
        <p className="placeholders">
          <span className="placeholders__label">Placeholders:</span>
          {templatePlaceholders.map((p) => (
            <code key={p}>{p}</code>
          ))}
        </p>
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">Use</legend>
        {first ? (
          <div className="first-channel" data-testid="first-channel-offer">
            <p className="first-channel__lead">
              This is your first channel. Until it exists, no monitor alerts anyone.
            </p>
            <CheckboxField
              name="offer.makeDefault"
              label="Make it the default for new monitors"
              hint="Ticked in the alert settings of each new monitor."
              checked={offer.makeDefault}
              onChange={(makeDefault) => setOffer((o) => ({ ...o, makeDefault }))}
            />
            {monitorCount > 0 && (
              <CheckboxField
                name="offer.attachAll"
                label={`Attach it to all ${plural(monitorCount, 'existing monitor')}`}
                hint="They alert through it from now on."
                checked={offer.attachAll}
                onChange={(attachAll) => setOffer((o) => ({ ...o, attachAll }))}
              />
            )}
          </div>
        ) : (
          <CheckboxField
            name="isDefault"
            label="Default for new monitors"
            hint="Ticked in the alert settings of each new monitor."
            checked={v.isDefault}
            onChange={(isDefault) => patch({ isDefault }, [])}
          />
        )}
        <CheckboxField
          name="enabled"
          label="Enabled"
          hint="A disabled channel sends nothing, not even queued alerts."
          checked={v.enabled}
          onChange={(enabled) => patch({ enabled }, [])}
        />
      </fieldset>

      <fieldset className="form__section">
        <legend className="form__legend">When it fails</legend>
        <div className="form__grid">
          <SelectField
            name="fallbackChannelId"
            label="Fallback channel"
            optional
            error={errorFor('fallbackChannelId')}
            hint="Gets this channel's messages, marked as fallback, while it keeps failing; and a notice when it starts failing and when it works again."
            value={v.fallbackChannelId}
            options={fallbackOptions}
            onChange={(fallbackChannelId) => patch({ fallbackChannelId }, ['fallbackChannelId'])}
          />
          <TextInputField
            name="failThreshold"
            label="Failures before fallback"
            error={errorFor('failThreshold')}
            hint="Deliveries in a row that gave up after their retries."
            kind="number"
            input={{
              value: v.failThreshold,
              min: 1,
              max: 100,
              onChange: (e) => patch({ failThreshold: e.target.value }, ['failThreshold']),
            }}
          />
        </div>
      </fieldset>

      <QuietHoursFields
        windows={v.quietWindows}
        rerouteChannelId={v.quietRerouteChannelId}
        channels={fallbackOptions.slice(1)}
        error={errorFor('quietHours')}
        onChange={(p) => patch(p, ['quietHours'])}
      />

      <div className="form__footer">
        {shownErrors > 0 && (
          <p className="form__summary" role="alert">
            Fix {plural(shownErrors, 'field')} marked above to continue.
          </p>
        )}
        {save.error && !(isApiError(save.error) && save.error.fieldErrors.length > 0) && (
          <ErrorNotice error={save.error} />
        )}
        {test.error && !(isApiError(test.error) && test.error.fieldErrors.length > 0) && (
          <ErrorNotice error={test.error} />
        )}
        {test.data && !test.isPending && <TestResultNotice name={v.name} result={test.data} />}
        <div className="form__buttons">
          {onCancel ? (
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          ) : (
            <ButtonLink to="/notifications" variant="ghost">
              Cancel
            </ButtonLink>
          )}
          <Button icon="activity" busy={test.isPending} onClick={sendTest}>
            Send test
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {channel ? 'Save changes' : 'Add channel'}
          </Button>
        </div>
      </div>
    </form>
  );
}
