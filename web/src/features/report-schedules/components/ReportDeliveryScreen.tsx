import type {
  ReportFileFormat,
  ReportLinkRange,
  ReportSchedule,
  ReportSubjectKind,
} from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { TimeZonePicker } from '../../../components/ui/TimeZonePicker';
import { displayTimeZone, formatDateTime } from '../../../lib/format';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { monitorNamesQuery } from '../../monitors/api/queries';
import { statusPageListQuery } from '../../status-pages/api/status-pages';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';
import {
  linkListQuery,
  peopleQuery,
  scheduleListQuery,
  useCreateLink,
  useDeleteSchedule,
  useRevokeLink,
  useSaveSchedule,
} from '../api/delivery';
import { SubjectFields } from './SubjectFields';

type Subject = { kind: ReportSubjectKind; id: string };

/** A subject as people know it: the monitor's name, the page's title, or the tag. */
function useSubjectLabel(): (s: Subject) => string {
  const monitors = useQuery(monitorNamesQuery());
  const pages = useQuery(statusPageListQuery());
  return (s) => {
    if (s.kind === 'tag') return `Tag ${s.id}`;
    if (s.kind === 'monitor')
      return monitors.data?.items.find((m) => String(m.id) === s.id)?.name ?? `Monitor #${s.id}`;
    return pages.data?.items.find((p) => String(p.id) === s.id)?.title ?? `Status page #${s.id}`;
  };
}

const formatsLabel = (formats: readonly ReportFileFormat[]) =>
  (['pdf', 'csv'] as const)
    .filter((f) => formats.includes(f))
    .join(' + ')
    .toUpperCase();

/** Report emails and customer links (ADR 65): who gets the monthly report, who may open one. */
export function ReportDeliveryScreen() {
  const me = useMe();
  const canEdit = atLeast(me.role, 'editor');
  return (
    <>
      <title>Report delivery · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Report delivery</h1>
          <p className="page-sub">
            Send last month’s report by email on day 1 of every month, or give a customer a
            read-only link.
          </p>
        </div>
      </div>
      {canEdit && <Schedules />}
      <Links canEdit={canEdit} />
    </>
  );
}

function Schedules() {
  const list = useQuery(scheduleListQuery(true));
  const remove = useDeleteSchedule();
  const subjectLabel = useSubjectLabel();
  // null: the form is closed; 'new': a new schedule; a number: that schedule is being edited.
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const items = list.data?.items ?? [];
  return (
    <section className="panel section-gap" aria-labelledby="schedules-title">
      <div className="delivery__head">
        <h2 className="panel__title" id="schedules-title">
          Monthly emails
        </h2>
        {editing === null && (
          <Button size="sm" icon="plus" onClick={() => setEditing('new')}>
            New monthly email
          </Button>
        )}
      </div>
      {editing === 'new' && <ScheduleForm schedule={null} onDone={() => setEditing(null)} />}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {items.length === 0 && !list.isPending && editing === null && (
        <p className="muted">No monthly emails yet.</p>
      )}
      <ul className="delivery__list" aria-label="Monthly emails">
        {items.map((s) =>
          editing === s.id ? (
            <li key={s.id}>
              <ScheduleForm schedule={s} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <li key={s.id} className="delivery__item">
              <div>
                <strong dir="auto">{s.name}</strong>
                <p className="muted">
                  {subjectLabel(s.subject)} · {formatsLabel(s.formats)} to{' '}
                  {s.userIds.length + s.emails.length} recipient
                  {s.userIds.length + s.emails.length === 1 ? '' : 's'}
                  {s.enabled ? '' : ' · paused'}
                </p>
                <p className="muted">
                  {s.enabled
                    ? `Next: ${s.nextPeriod}, sent ${formatDateTime(s.nextSendAt)}`
                    : `Paused: ${s.nextPeriod} will not be sent`}
                  {s.lastPeriod
                    ? ` · ${s.lastPeriod.period}: ${s.lastPeriod.sent} sent, ${s.lastPeriod.pending} waiting, ${s.lastPeriod.failed} failed`
                    : ''}
                </p>
                {s.lastError && <p className="delivery__error">{s.lastError}</p>}
              </div>
              <div className="actions__buttons">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Edit ${s.name}`}
                  onClick={() => setEditing(s.id)}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete ${s.name}`}
                  onClick={() => {
                    remove.reset();
                    setDeleting(s);
                  }}
                >
                  Delete
                </Button>
              </div>
            </li>
          ),
        )}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete monthly email"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
        }}
      >
        <p>No more reports go out for it. Months already sent stay in the audit log.</p>
      </ConfirmDialog>
    </section>
  );
}

/** A new monthly email (`schedule` null) or one being changed. */
function ScheduleForm({
  schedule,
  onDone,
}: {
  schedule: ReportSchedule | null;
  onDone: () => void;
}) {
  const save = useSaveSchedule();
  const people = useQuery(peopleQuery());
  const [name, setName] = useState(schedule?.name ?? '');
  const [kind, setKind] = useState<ReportSubjectKind>(schedule?.subject.kind ?? 'monitor');
  const [id, setId] = useState(schedule?.subject.id ?? '');
  const [zone, setZone] = useState(schedule?.timeZone ?? displayTimeZone());
  const [pdf, setPdf] = useState(schedule ? schedule.formats.includes('pdf') : true);
  const [csv, setCsv] = useState(schedule ? schedule.formats.includes('csv') : false);
  const [userIds, setUserIds] = useState<number[]>(schedule?.userIds ?? []);
  const [emails, setEmails] = useState(schedule?.emails.join(', ') ?? '');
  const [enabled, setEnabled] = useState(schedule?.enabled ?? true);
  const title = schedule ? `Edit “${schedule.name}”` : 'New monthly email';
  const listed = people.data?.items ?? [];
  // Chosen people the list does not show (disabled or deleted since).
  const unlisted = userIds.filter((u) => !listed.some((p) => p.id === u));
  const toggle = (uid: number, on: boolean) =>
    setUserIds((list) => (on ? [...list, uid] : list.filter((x) => x !== uid)));
  return (
    <form
      className="delivery__form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        const formats: ReportFileFormat[] = [
          ...(pdf ? ['pdf' as const] : []),
          ...(csv ? ['csv' as const] : []),
        ];
        save.mutate(
          {
            id: schedule?.id ?? null,
            input: {
              name,
              subject: { kind, id },
              timeZone: zone,
              degradedIsDown: schedule?.degradedIsDown ?? false,
              formats,
              userIds,
              emails: emails
                .split(/[\s,;]+/)
                .map((m) => m.trim())
                .filter(Boolean),
              enabled,
            },
          },
          { onSuccess: onDone },
        );
      }}
    >
      <h3 className="delivery__form-title">{title}</h3>
      <p className="muted delivery__period">
        Every month: on day 1, in the time zone below, the month before is reported.
      </p>
      <div className="form__grid">
        <TextInputField
          name="scheduleName"
          label="Name"
          kind="text"
          input={{ value: name, onChange: (e) => setName(e.target.value), required: true }}
        />
        <SubjectFields prefix="schedule" kind={kind} id={id} onKind={setKind} onId={setId} />
        <Field name="scheduleZone" label="Time zone" hint="Months start at midnight here.">
          {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
        </Field>
      </div>
      <fieldset className="delivery__formats delivery__people">
        <legend className="field__label">People</legend>
        {listed.map((u) => (
          <CheckboxField
            key={u.id}
            name={`scheduleUser${u.id}`}
            label={`${u.name} (${u.email})`}
            checked={userIds.includes(u.id)}
            onChange={(on) => toggle(u.id, on)}
          />
        ))}
        {unlisted.map((uid) => (
          <CheckboxField
            key={uid}
            name={`scheduleUser${uid}`}
            label={`User #${uid}`}
            checked
            onChange={(on) => toggle(uid, on)}
          />
        ))}
        {people.error && <ErrorNotice error={people.error} />}
      </fieldset>
      <div className="form__grid">
        <TextInputField
          name="scheduleEmails"
          label="Other addresses"
          hint="Email addresses, separated by commas."
          kind="text"
          input={{ value: emails, onChange: (e) => setEmails(e.target.value) }}
        />
      </div>
      <fieldset className="delivery__formats">
        <legend className="field__label">Attach</legend>
        <CheckboxField name="pdf" label="PDF" checked={pdf} onChange={setPdf} />
        <CheckboxField name="csv" label="CSV" checked={csv} onChange={setCsv} />
      </fieldset>
      <CheckboxField
        name="scheduleEnabled"
        label="Send every month (clear to pause)"
        checked={enabled}
        onChange={setEnabled}
      />
      {schedule && (
        <p className="muted">
          Next: {schedule.nextPeriod}, sent {formatDateTime(schedule.nextSendAt)}
        </p>
      )}
      {save.error ? <ErrorNotice error={save.error} /> : null}
      <div className="actions__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {schedule ? 'Save' : 'Schedule'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

const rangeOptions = [
  { value: 'last_month', label: 'Last month (rolling)' },
  { value: 'month', label: 'A month' },
  { value: 'quarter', label: 'A quarter' },
] as const satisfies readonly { value: ReportLinkRange; label: string }[];

function Links({ canEdit }: { canEdit: boolean }) {
  const list = useQuery(linkListQuery());
  const revoke = useRevokeLink();
  const subjectLabel = useSubjectLabel();
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<string | null>(null);
  const items = list.data?.items ?? [];
  return (
    <section className="panel section-gap" aria-labelledby="links-title">
      <div className="delivery__head">
        <h2 className="panel__title" id="links-title">
          Customer links
        </h2>
        {canEdit && !adding && (
          <Button size="sm" icon="plus" onClick={() => setAdding(true)}>
            New link
          </Button>
        )}
      </div>
      {adding && (
        <LinkForm
          onDone={(url) => {
            setAdding(false);
            setMade(url);
          }}
        />
      )}
      {made && (
        <div className="delivery__made" role="status">
          <p>
            Copy the link now: Pagewatch keeps only a fingerprint of it and cannot show it again.
          </p>
          <code className="delivery__url">{made}</code>
          <CopyButton text={made} size="sm" />
        </div>
      )}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {items.length === 0 && !list.isPending && !adding && <p className="muted">No links yet.</p>}
      <ul className="delivery__list" aria-label="Customer links">
        {items.map((l) => (
          <li key={l.id} className="delivery__item">
            <div>
              <strong dir="auto">{l.name}</strong>{' '}
              <span className={`delivery__state delivery__state--${l.state}`}>{l.state}</span>
              <p className="muted">
                {subjectLabel(l.subject)} ·{' '}
                {l.range === 'last_month'
                  ? 'last month, rolling'
                  : (l.period ?? `${l.from} – ${l.to}`)}
                {l.expiresAt ? ` · until ${formatDateTime(l.expiresAt)}` : ''}
                {l.lastViewedAt
                  ? ` · opened ${formatDateTime(l.lastViewedAt)}`
                  : ' · not opened yet'}
              </p>
            </div>
            {canEdit && l.state === 'active' && (
              <Button
                size="sm"
                variant="ghost"
                busy={revoke.isPending && revoke.variables === l.id}
                onClick={() => revoke.mutate(l.id)}
              >
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function LinkForm({ onDone }: { onDone: (url: string) => void }) {
  const save = useCreateLink();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ReportSubjectKind>('monitor');
  const [id, setId] = useState('');
  const [range, setRange] = useState<ReportLinkRange>('last_month');
  const [period, setPeriod] = useState('');
  const [zone, setZone] = useState(displayTimeZone());
  const [expires, setExpires] = useState('');
  return (
    <form
      className="delivery__form"
      aria-label="New link"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          {
            name,
            subject: { kind, id },
            range,
            ...(range === 'last_month' ? {} : { period }),
            timeZone: zone,
            expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
          },
          {
            onSuccess: (r) => onDone(r.url.startsWith('/') ? `${location.origin}${r.url}` : r.url),
          },
        );
      }}
    >
      <div className="form__grid">
        <TextInputField
          name="linkName"
          label="Name"
          hint="For you: who the link is for."
          kind="text"
          input={{ value: name, onChange: (e) => setName(e.target.value), required: true }}
        />
        <SubjectFields prefix="link" kind={kind} id={id} onKind={setKind} onId={setId} />
        <SelectField
          name="linkRange"
          label="Range"
          value={range}
          options={rangeOptions}
          onChange={setRange}
        />
        {range !== 'last_month' && (
          <TextInputField
            name="linkPeriod"
            label={range === 'month' ? 'Month' : 'Quarter'}
            hint={range === 'month' ? 'Like 2026-03.' : 'Like 2026-Q1.'}
            kind="text"
            input={{ value: period, onChange: (e) => setPeriod(e.target.value), required: true }}
          />
        )}
        <Field name="linkZone" label="Time zone">
          {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
        </Field>
        <TextInputField
          name="linkExpires"
          label="Works until (optional)"
          kind="text"
          input={{ value: expires, onChange: (e) => setExpires(e.target.value), type: 'date' }}
        />
      </div>
      {save.error ? <ErrorNotice error={save.error} /> : null}
      <div className="actions__buttons">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Make link
        </Button>
        <Button variant="ghost" onClick={() => onDone('')}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
