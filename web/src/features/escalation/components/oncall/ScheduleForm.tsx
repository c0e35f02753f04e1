import type { OnCallSchedule, RotationLayerInput, User } from '@pagewatch/contract';
import { wallClockAt } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/ui/Button';
import { Field } from '../../../../components/ui/Field';
import { ErrorNotice } from '../../../../components/ui/Notice';
import { TimeZonePicker } from '../../../../components/ui/TimeZonePicker';
import { CheckboxField, TextInputField } from '../../../monitors/components/form/controls';
import { usersQuery } from '../../../settings/api/users';
import { useSaveSchedule } from '../../api/oncall';
import { fieldErrorOf, fieldErrorsUnder } from './field-errors';

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** A layer as the form holds it: numbers as typed, a restriction that can be switched off. */
interface LayerDraft {
  key: number;
  name: string;
  members: number[];
  startDate: string;
  handoff: string;
  lengthDays: string;
  restricted: boolean;
  days: number[];
  from: string;
  to: string;
}

let nextKey = 1;
const todayIn = (zone: string) => {
  const w = wallClockAt(Date.now(), zone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
};

function draftOf(l: RotationLayerInput): LayerDraft {
  return {
    key: nextKey++,
    name: l.name,
    members: [...l.members],
    startDate: l.startDate,
    handoff: l.handoff,
    lengthDays: String(l.lengthDays),
    restricted: l.restriction !== null,
    days: l.restriction?.days ? [...l.restriction.days] : [1, 2, 3, 4, 5],
    from: l.restriction?.from ?? '09:00',
    to: l.restriction?.to ?? '17:00',
  };
}

const newLayer = (n: number, zone: string): LayerDraft => ({
  key: nextKey++,
  name: n === 0 ? 'Weekly' : `Layer ${n + 1}`,
  members: [],
  startDate: todayIn(zone),
  handoff: '09:00',
  lengthDays: '7',
  restricted: false,
  days: [1, 2, 3, 4, 5],
  from: '09:00',
  to: '17:00',
});

function inputOf(l: LayerDraft): RotationLayerInput {
  return {
    name: l.name,
    members: l.members,
    startDate: l.startDate,
    handoff: l.handoff,
    lengthDays: Number(l.lengthDays),
    restriction: l.restricted ? { days: l.days, from: l.from, to: l.to } : null,
  };
}

const personName = (u: User) => u.name || u.email;

/** People in rotation order: the chosen ones as an ordered list with up/down, then the rest. */
function MembersPicker({
  users,
  members,
  onChange,
  error,
  layerName,
}: {
  users: User[];
  members: number[];
  onChange: (m: number[]) => void;
  error: string | undefined;
  layerName: string;
}) {
  const byId = new Map(users.map((u) => [u.id, u]));
  const move = (i: number, by: number) => {
    const next = [...members];
    const [m] = next.splice(i, 1);
    next.splice(i + by, 0, m!);
    onChange(next);
  };
  return (
    <fieldset className={`oncall-members${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">People, in the order they take over</legend>
      {members.length > 0 && (
        <ol className="oncall-members__order" aria-label={`Rotation order of ${layerName}`}>
          {members.map((id, i) => (
            <li key={id}>
              <span>{byId.get(id) ? personName(byId.get(id)!) : `Person ${id}`}</span>
              <span className="actions__buttons">
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={i === 0}
                  aria-label="Move earlier"
                  onClick={() => move(i, -1)}
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={i === members.length - 1}
                  aria-label="Move later"
                  onClick={() => move(i, 1)}
                >
                  ↓
                </Button>
              </span>
            </li>
          ))}
        </ol>
      )}
      <div className="oncall-members__pick">
        {users.map((u) => (
          <CheckboxField
            key={u.id}
            name={`member-${u.id}`}
            label={personName(u)}
            checked={members.includes(u.id)}
            onChange={(on) => onChange(on ? [...members, u.id] : members.filter((m) => m !== u.id))}
          />
        ))}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function LayerFields({
  layer,
  index,
  count,
  users,
  error,
  onChange,
  onMove,
  onRemove,
}: {
  layer: LayerDraft;
  index: number;
  count: number;
  users: User[];
  error: unknown;
  onChange: (l: LayerDraft) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const at = `layers.${index}`;
  const set = (patch: Partial<LayerDraft>) => onChange({ ...layer, ...patch });
  return (
    <li className="esc-step oncall-layer">
      <fieldset aria-label={`Layer ${index + 1}`}>
        <div className="oncall-layer__head">
          <legend className="panel__title">
            Layer {index + 1}
            {count > 1 && index === count - 1 ? ' (wins where active)' : ''}
          </legend>
          <span className="actions__buttons">
            <Button size="sm" variant="ghost" disabled={index === 0} onClick={() => onMove(-1)}>
              Move up
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              Move down
            </Button>
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              disabled={count === 1}
              onClick={onRemove}
            >
              Remove layer
            </Button>
          </span>
        </div>
        <div className="form__grid form__grid--narrow">
          <TextInputField
            name={`${at}.name`}
            label="Layer title"
            kind="text"
            error={fieldErrorOf(error, `${at}.name`)}
            input={{ value: layer.name, onChange: (e) => set({ name: e.target.value }) }}
          />
          <TextInputField
            name={`${at}.startDate`}
            label="First shift starts on"
            kind="text"
            error={fieldErrorOf(error, `${at}.startDate`)}
            input={{
              type: 'date',
              value: layer.startDate,
              onChange: (e) => set({ startDate: e.target.value }),
            }}
          />
          <TextInputField
            name={`${at}.handoff`}
            label="Handoff time"
            kind="text"
            error={fieldErrorOf(error, `${at}.handoff`)}
            input={{
              type: 'time',
              value: layer.handoff,
              onChange: (e) => set({ handoff: e.target.value }),
            }}
          />
          <TextInputField
            name={`${at}.lengthDays`}
            label="Shift length (days)"
            hint="7 for a weekly rotation."
            kind="number"
            error={fieldErrorOf(error, `${at}.lengthDays`)}
            input={{
              value: layer.lengthDays,
              onChange: (e) => set({ lengthDays: e.target.value }),
            }}
          />
        </div>
        <MembersPicker
          users={users}
          members={layer.members}
          layerName={layer.name || `layer ${index + 1}`}
          error={fieldErrorsUnder(error, `${at}.members`)}
          onChange={(members) => set({ members })}
        />
        <CheckboxField
          name={`${at}.restricted`}
          label="Only on some days or hours"
          checked={layer.restricted}
          onChange={(restricted) => set({ restricted })}
        />
        {layer.restricted && (
          <div className="oncall-restriction">
            <fieldset className="oncall-days">
              <legend className="field__label">Days</legend>
              {WEEKDAYS.map((d, i) => (
                <CheckboxField
                  key={d}
                  name={`${at}.day-${i}`}
                  label={d}
                  checked={layer.days.includes(i)}
                  onChange={(on) =>
                    set({
                      days: on
                        ? [...layer.days, i].sort((a, b) => a - b)
                        : layer.days.filter((x) => x !== i),
                    })
                  }
                />
              ))}
            </fieldset>
            <TextInputField
              name={`${at}.restriction.from`}
              label="From"
              kind="text"
              error={fieldErrorOf(error, `${at}.restriction.from`)}
              input={{
                type: 'time',
                value: layer.from,
                onChange: (e) => set({ from: e.target.value }),
              }}
            />
            <TextInputField
              name={`${at}.restriction.to`}
              label="To"
              hint="Earlier than From: the window runs over midnight."
              kind="text"
              error={
                fieldErrorOf(error, `${at}.restriction.to`) ??
                fieldErrorsUnder(error, `${at}.restriction`)
              }
              input={{
                type: 'time',
                value: layer.to,
                onChange: (e) => set({ to: e.target.value }),
              }}
            />
          </div>
        )}
      </fieldset>
    </li>
  );
}

/** Creates a schedule or edits one: name, zone and layers (later layers win where active). */
export function ScheduleForm({
  schedule,
  onDone,
}: {
  schedule: OnCallSchedule | null;
  onDone: () => void;
}) {
  const users = useQuery(usersQuery());
  const save = useSaveSchedule();
  const [name, setName] = useState(schedule?.name ?? '');
  const [zone, setZone] = useState(
    () => schedule?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  );
  const [layers, setLayers] = useState<LayerDraft[]>(() =>
    schedule ? schedule.layers.map(draftOf) : [newLayer(0, zone)],
  );
  const title = schedule ? `Edit “${schedule.name}”` : 'New on-call schedule';
  const people = users.data?.items ?? [];
  const moveLayer = (i: number, by: number) => {
    const next = [...layers];
    const [l] = next.splice(i, 1);
    next.splice(i + by, 0, l!);
    setLayers(next);
  };
  return (
    <form
      className="panel section-gap"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          {
            id: schedule?.id ?? null,
            input: { name, timeZone: zone, layers: layers.map(inputOf) },
          },
          { onSuccess: onDone },
        );
      }}
    >
      <h2 className="panel__title">{title}</h2>
      <div className="form__grid form__grid--narrow">
        <TextInputField
          name="name"
          label="Name"
          kind="text"
          error={fieldErrorOf(save.error, 'name')}
          input={{ value: name, onChange: (e) => setName(e.target.value) }}
        />
        <Field
          name="timeZone"
          label="Time zone"
          hint="Handoffs and restrictions are wall-clock times here, also across DST changes."
          error={fieldErrorOf(save.error, 'timeZone')}
        >
          {(p) => <TimeZonePicker {...p} value={zone} onChange={setZone} />}
        </Field>
      </div>
      <p className="muted section-gap">
        Layers stack: where several are active, the <strong>later layer wins</strong> (put a weekend
        or night layer below the main rotation). An override wins over every layer.
      </p>
      {fieldErrorOf(save.error, 'layers') && (
        <p className="field__error" role="alert">
          {fieldErrorOf(save.error, 'layers')}
        </p>
      )}
      <ol className="esc-steps" aria-label="Layers">
        {layers.map((l, i) => (
          <LayerFields
            key={l.key}
            layer={l}
            index={i}
            count={layers.length}
            users={people}
            error={save.error}
            onChange={(next) => setLayers(layers.map((x) => (x.key === l.key ? next : x)))}
            onMove={(by) => moveLayer(i, by)}
            onRemove={() => setLayers(layers.filter((x) => x.key !== l.key))}
          />
        ))}
      </ol>
      {layers.length < 10 && (
        <Button icon="plus" onClick={() => setLayers([...layers, newLayer(layers.length, zone)])}>
          Add a layer
        </Button>
      )}
      {save.error ? <ErrorNotice error={save.error} className="section-gap" /> : null}
      <div className="actions__buttons section-gap">
        <Button type="submit" variant="primary" busy={save.isPending}>
          Save schedule
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
