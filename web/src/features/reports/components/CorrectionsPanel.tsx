import type { Correction } from '@pagewatch/contract';
import { correctionLimits, instantToLocal, localToInstant } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Field } from '../../../components/ui/Field';
import { ErrorNotice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { displayTimeZone, formatInstantIn, formatRangeIn } from '../../../lib/format';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { correctionsQuery, useAddCorrection, useRemoveCorrection } from '../api/reports';

const HOUR = 3_600_000;

/**
 * A monitor's corrections (ADR 54): periods left out of its availability, with who left them
 * out and why. Editors add and remove them; every report they change lists them.
 */
export function CorrectionsPanel({ monitorId }: { monitorId: number }) {
  const me = useMe();
  const canEdit = atLeast(me.role, 'editor');
  const zone = displayTimeZone();
  const list = useQuery(correctionsQuery(monitorId));
  const add = useAddCorrection(monitorId);
  const remove = useRemoveCorrection(monitorId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Correction | null>(null);
  const items = list.data?.items ?? [];
  return (
    <section className="panel section-gap" aria-labelledby="corrections-heading">
      <div className="slo-item__head">
        <div>
          <h2 id="corrections-heading" className="panel__title">
            Corrections
          </h2>
          <p className="muted">
            Periods left out of this monitor’s uptime, e.g. a false positive or a planned test.
          </p>
        </div>
        {canEdit && !adding && (
          <Button size="sm" icon="plus" onClick={() => setAdding(true)}>
            Add correction
          </Button>
        )}
      </div>
      {adding && (
        <CorrectionForm
          zone={zone}
          busy={add.isPending}
          error={add.error}
          onCancel={() => {
            add.reset();
            setAdding(false);
          }}
          onSubmit={(input) => add.mutate(input, { onSuccess: () => setAdding(false) })}
        />
      )}
      {list.error ? <ErrorNotice error={list.error} /> : null}
      {items.length === 0 && !list.isPending ? (
        <p className="muted corrections__empty">No corrections: every check counts.</p>
      ) : (
        <ul className="corrections" aria-label="Corrections">
          {items.map((c) => (
            <li key={c.id} className="corrections__item" aria-label={c.reason}>
              <div>
                <p className="corrections__period">{formatRangeIn(c.startsAt, c.endsAt, zone)}</p>
                <p className="corrections__reason">{c.reason}</p>
                <p className="muted corrections__who">
                  By {c.createdBy} on {formatInstantIn(c.createdAt, zone)}
                </p>
              </div>
              {canEdit && (
                <Button size="sm" variant="ghost" onClick={() => setRemoving(c)}>
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="muted corrections__zone">Times in {zone}.</p>
      <ConfirmDialog
        open={removing !== null}
        title="Delete this correction?"
        confirmLabel="Delete correction"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onConfirm={() =>
          removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })
        }
        onCancel={() => setRemoving(null)}
      >
        The period counts again in uptime, SLOs and reports.
      </ConfirmDialog>
    </section>
  );
}

function CorrectionForm({
  zone,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  zone: string;
  busy: boolean;
  error: Error | null;
  onSubmit: (input: { startsAt: string; endsAt: string; reason: string }) => void;
  onCancel: () => void;
}) {
  const now = Date.now();
  const [start, setStart] = useState(() => instantToLocal(now - HOUR, zone));
  const [end, setEnd] = useState(() => instantToLocal(now, zone));
  const [reason, setReason] = useState('');
  const fieldError = (path: string) =>
    isApiError(error) ? error.fieldErrors.find((e) => e.path === path)?.message : undefined;
  const iso = (local: string) => {
    const t = localToInstant(local, zone);
    return t === null ? '' : new Date(t).toISOString();
  };
  const known = ['startsAt', 'endsAt', 'reason'];
  const other =
    error && !(isApiError(error) && error.fieldErrors.some((e) => known.includes(e.path)));
  return (
    <form
      className="corrections__form"
      aria-label="Add correction"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ startsAt: iso(start), endsAt: iso(end), reason });
      }}
    >
      <div className="form__grid">
        <Field name="startsAt" label={`Starts (${zone})`} error={fieldError('startsAt')}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              className="input"
              value={start}
              onChange={(e) => setStart(e.target.value)}
            />
          )}
        </Field>
        <Field name="endsAt" label={`Ends (${zone})`} error={fieldError('endsAt')}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              className="input"
              value={end}
              onChange={(e) => setEnd(e.target.value)}
            />
          )}
        </Field>
      </div>
      <Field
        name="reason"
        label="Reason"
        hint="Shown in every report this correction changes."
        error={fieldError('reason')}
      >
        {(p) => (
          <textarea
            {...p}
            className="input"
            rows={2}
            maxLength={correctionLimits.reasonMax}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </Field>
      {other ? <ErrorNotice error={error} /> : null}
      <div className="actions__buttons">
        <Button type="submit" variant="primary" busy={busy}>
          Leave out this period
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
