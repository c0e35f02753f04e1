import '../../../styles/contact-methods.css';
import type { QuietHoursWindow } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { offeredTimeZones } from '../../../lib/time-zones';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';
import { myQuietHoursQuery, useSaveQuietHours } from '../api/contact-methods';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const describe = (w: QuietHoursWindow) =>
  `${w.days.map((d) => DAYS[d]).join(', ')} ${w.from}–${w.to} (${w.timeZone})`;

/**
 * My account → Quiet hours (ADR 60): warnings to you wait until a window ends (never dropped);
 * critical alerts always go through.
 */
export function QuietHoursPanel() {
  const query = useQuery(myQuietHoursQuery());
  const save = useSaveQuietHours();
  const [draft, setDraft] = useState<QuietHoursWindow>(() => ({
    days: [0, 1, 2, 3, 4, 5, 6],
    from: '22:00',
    to: '07:00',
    timeZone: browserZone(),
  }));
  const windows = query.data?.windows ?? [];
  const zones = offeredTimeZones(draft.timeZone);
  return (
    <section className="panel" aria-labelledby="quiet-hours-title">
      <h3 id="quiet-hours-title" className="panel__title">
        Quiet hours
      </h3>
      <p className="muted">
        Warnings for you wait until the window ends; critical alerts always reach you.
      </p>
      {windows.length > 0 ? (
        <ul className="cm-list" aria-label="Your quiet hours">
          {windows.map((w, i) => (
            <li key={i} className="cm-row">
              <span className="cm-row__main">{describe(w)}</span>
              <Button
                size="sm"
                variant="ghost"
                icon="trash"
                onClick={() => save.mutate({ windows: windows.filter((_, j) => j !== i) })}
              >
                Remove<span className="visually-hidden"> {describe(w)}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        !query.isPending && <p className="muted">No quiet hours: warnings reach you at once.</p>
      )}
      <form
        aria-label="Add quiet hours"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ windows: [...windows, draft] });
        }}
      >
        <fieldset className="cm-days">
          <legend className="field__label">Days the window starts on</legend>
          {DAYS.map((d, i) => (
            <CheckboxField
              key={d}
              name={`day-${i}`}
              label={d}
              checked={draft.days.includes(i)}
              onChange={(on) =>
                setDraft({
                  ...draft,
                  days: on ? [...draft.days, i].sort() : draft.days.filter((x) => x !== i),
                })
              }
            />
          ))}
        </fieldset>
        <div className="cm-add">
          <TextInputField
            name="from"
            label="From"
            kind="code"
            input={{
              value: draft.from,
              onChange: (e) => setDraft({ ...draft, from: e.target.value }),
            }}
          />
          <TextInputField
            name="to"
            label="To"
            hint="Before From: over midnight."
            kind="code"
            input={{ value: draft.to, onChange: (e) => setDraft({ ...draft, to: e.target.value }) }}
          />
          <SelectField
            name="timeZone"
            label="Time zone"
            value={draft.timeZone}
            options={zones}
            onChange={(timeZone) => setDraft({ ...draft, timeZone })}
          />
        </div>
        {save.error ? <ErrorNotice error={save.error} className="section-gap" /> : null}
        <div className="actions__buttons section-gap">
          <Button type="submit" icon="plus" busy={save.isPending}>
            Add quiet hours
          </Button>
        </div>
      </form>
    </section>
  );
}
