import type { OnCallSchedule, OnCallTimelineShift } from '@pagewatch/contract';
import { instantToLocal, localToInstant } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { Segmented } from '../../../../components/ui/Segmented';
import { formatRangeIn } from '../../../../lib/format';
import { SelectField, TextInputField } from '../../../monitors/components/form/controls';
import { usersQuery } from '../../../settings/api/users';
import { useAddOverrides, useRemoveOverride } from '../../api/oncall';
import { fieldErrorOf } from './field-errors';

type Mode = 'cover' | 'swap';

const iso = (local: string, zone: string) => {
  const t = localToInstant(local, zone);
  return t === null ? '' : new Date(t).toISOString();
};
const shiftLabel = (s: OnCallTimelineShift, zone: string) =>
  `${s.userName ?? 'Nobody'}: ${formatRangeIn(s.start, s.end, zone)}`;

/** Who covers what: cover a stretch (one person takes over) or swap two people's shifts. */
export function OverridesPanel({
  schedule,
  upcoming,
}: {
  schedule: OnCallSchedule;
  /** The result row of the timeline: shifts to pick from. */
  upcoming: OnCallTimelineShift[];
}) {
  const zone = schedule.timeZone;
  const users = useQuery(usersQuery());
  const add = useAddOverrides();
  const remove = useRemoveOverride();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('cover');
  const [userId, setUserId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [swapA, setSwapA] = useState('');
  const [swapB, setSwapB] = useState('');
  const shifts = upcoming.filter((s) => s.userId !== null && s.source !== 'override');
  const byStart = new Map(shifts.map((s) => [s.start, s]));
  const now = Date.now();
  const future = schedule.overrides.filter((o) => Date.parse(o.to) > now);
  const people = users.data?.items ?? [];
  const reset = () => {
    add.reset();
    setOpen(false);
    setUserId('');
    setFrom('');
    setTo('');
    setSwapA('');
    setSwapB('');
  };
  const a = byStart.get(swapA);
  const b = byStart.get(swapB);
  return (
    <section className="oncall-overrides" aria-label={`Overrides of ${schedule.name}`}>
      <div className="oncall-overrides__head">
        <h3 className="oncall-subtitle">Overrides</h3>
        {!open && (
          <Button size="sm" icon="plus" onClick={() => setOpen(true)}>
            Add an override
          </Button>
        )}
      </div>
      {future.length === 0 ? (
        <p className="muted">No overrides coming up.</p>
      ) : (
        <ul className="oncall-override-list" aria-label="Upcoming overrides">
          {future.map((o) => (
            <li key={o.id}>
              <span>
                <strong>{o.userName}</strong> covers {formatRangeIn(o.from, o.to, zone)}
              </span>
              <Button
                size="sm"
                variant="ghost"
                icon="trash"
                busy={remove.isPending && remove.variables?.overrideId === o.id}
                aria-label={`Delete ${o.userName}’s override from ${formatRangeIn(o.from, o.to, zone)}`}
                onClick={() => remove.mutate({ id: schedule.id, overrideId: o.id })}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      {remove.error ? <ErrorNotice error={remove.error} /> : null}
      {open && (
        <form
          className="oncall-override-form"
          aria-label="New override"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const overrides =
              mode === 'cover'
                ? [{ userId: Number(userId), from: iso(from, zone), to: iso(to, zone) }]
                : a && b
                  ? [
                      { userId: b.userId!, from: a.start, to: a.end },
                      { userId: a.userId!, from: b.start, to: b.end },
                    ]
                  : [];
            if (overrides.length === 0) return;
            add.mutate({ id: schedule.id, overrides }, { onSuccess: reset });
          }}
        >
          <Segmented
            label="Kind of override"
            value={mode}
            options={[
              { value: 'cover', label: 'Cover a stretch' },
              { value: 'swap', label: 'Swap two shifts' },
            ]}
            onChange={(m) => {
              add.reset();
              setMode(m);
            }}
          />
          {mode === 'cover' ? (
            <>
              <SelectField
                name="shift"
                label="Fill in a shift"
                hint="Or type the times below."
                value=""
                options={[
                  { value: '', label: 'Choose a shift…' },
                  ...shifts.map((s) => ({ value: s.start, label: shiftLabel(s, zone) })),
                ]}
                onChange={(start) => {
                  const s = byStart.get(start);
                  if (!s) return;
                  setFrom(instantToLocal(Math.max(Date.parse(s.start), now), zone));
                  setTo(instantToLocal(Date.parse(s.end), zone));
                }}
              />
              <div className="form__grid form__grid--narrow">
                <SelectField
                  name="userId"
                  label="Who is on call instead"
                  value={userId}
                  error={fieldErrorOf(add.error, 'userId')}
                  options={[
                    { value: '', label: 'Choose a person…' },
                    ...people.map((u) => ({ value: String(u.id), label: u.name || u.email })),
                  ]}
                  onChange={setUserId}
                />
                <TextInputField
                  name="from"
                  label={`From (${zone.replaceAll('_', ' ')})`}
                  kind="text"
                  error={fieldErrorOf(add.error, 'from')}
                  input={{
                    type: 'datetime-local',
                    value: from,
                    onChange: (e) => setFrom(e.target.value),
                  }}
                />
                <TextInputField
                  name="to"
                  label={`Until (${zone.replaceAll('_', ' ')})`}
                  kind="text"
                  error={fieldErrorOf(add.error, 'to')}
                  input={{
                    type: 'datetime-local',
                    value: to,
                    onChange: (e) => setTo(e.target.value),
                  }}
                />
              </div>
            </>
          ) : (
            <div className="form__grid form__grid--narrow">
              <SelectField
                name="swapA"
                label="This shift"
                value={swapA}
                options={[
                  { value: '', label: 'Choose a shift…' },
                  ...shifts.map((s) => ({ value: s.start, label: shiftLabel(s, zone) })),
                ]}
                onChange={setSwapA}
              />
              <SelectField
                name="swapB"
                label="Swaps with"
                hint="Each person takes the other’s shift (two overrides)."
                value={swapB}
                options={[
                  { value: '', label: 'Choose a shift…' },
                  ...shifts
                    .filter((s) => !a || s.userId !== a.userId)
                    .map((s) => ({ value: s.start, label: shiftLabel(s, zone) })),
                ]}
                onChange={setSwapB}
              />
            </div>
          )}
          {add.error ? <ErrorNotice error={add.error} /> : null}
          <div className="actions__buttons">
            <Button
              type="submit"
              variant="primary"
              size="sm"
              busy={add.isPending}
              disabled={mode === 'swap' && !(a && b)}
            >
              {mode === 'cover' ? 'Save override' : 'Swap shifts'}
            </Button>
            <Button size="sm" variant="ghost" onClick={reset}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
