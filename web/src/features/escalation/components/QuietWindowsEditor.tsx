import '../../../styles/contact-methods.css';
import type { QuietHoursWindow } from '@pagewatch/contract';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { offeredTimeZones } from '../../../lib/time-zones';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** "Mon, Tue 22:00–07:00 (Europe/Berlin)". */
export const describeQuietWindow = (w: QuietHoursWindow) =>
  `${w.days.map((d) => DAYS[d]).join(', ')} ${w.from}–${w.to} (${w.timeZone})`;

interface Props {
  windows: QuietHoursWindow[];
  onAdd: (w: QuietHoursWindow) => void;
  onRemove: (index: number) => void;
  /** Accessible name of the list of windows. */
  listLabel: string;
  /** Shown when there are no windows; null shows nothing (e.g. while loading). */
  emptyText: string | null;
  /** Accessible name of the part that adds a window, and its button's label. */
  addLabel: string;
  buttonLabel: string;
  /** Prefix of the inputs' names, so two editors on one page never share an id. */
  namePrefix: string;
  /** Days a new window starts on, before the user changes them (0 = Sunday). */
  initialDays: number[];
  /**
   * A form of its own (saved on its own, e.g. personal quiet hours) or a group inside another
   * form (the channel form: forms do not nest, and the windows are saved with the channel).
   */
  standalone?: boolean;
  busy?: boolean;
  /** Shown above the add button (a save error). */
  notice?: ReactNode;
}

/**
 * The one editor of quiet-hours windows (days, hours, time zone), used for a person's quiet
 * hours (ADR 60) and a channel's (ADR 68): the list with Remove buttons and a draft window
 * with an Add button. Saving is the caller's: it gets the window added or the index removed.
 */
export function QuietWindowsEditor(p: Props) {
  const [draft, setDraft] = useState<QuietHoursWindow>(() => ({
    days: p.initialDays,
    from: '22:00',
    to: '07:00',
    timeZone: browserZone(),
  }));
  const fields = (
    <>
      <fieldset className="cm-days">
        <legend className="field__label">Days the window starts on</legend>
        {DAYS.map((d, i) => (
          <CheckboxField
            key={d}
            name={`${p.namePrefix}-day-${i}`}
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
          name={`${p.namePrefix}From`}
          label="From"
          kind="code"
          input={{
            value: draft.from,
            onChange: (e) => setDraft({ ...draft, from: e.target.value }),
          }}
        />
        <TextInputField
          name={`${p.namePrefix}To`}
          label="To"
          hint="Before From: over midnight."
          kind="code"
          input={{ value: draft.to, onChange: (e) => setDraft({ ...draft, to: e.target.value }) }}
        />
        <SelectField
          name={`${p.namePrefix}TimeZone`}
          label="Time zone"
          value={draft.timeZone}
          options={offeredTimeZones(draft.timeZone)}
          onChange={(timeZone) => setDraft({ ...draft, timeZone })}
        />
      </div>
      {p.notice}
      <div className="actions__buttons section-gap">
        <Button
          type={p.standalone ? 'submit' : 'button'}
          icon="plus"
          busy={p.busy ?? false}
          disabled={draft.days.length === 0 || p.busy === true}
          onClick={p.standalone ? undefined : () => p.onAdd(draft)}
        >
          {p.buttonLabel}
        </Button>
      </div>
    </>
  );
  return (
    <>
      {p.windows.length > 0 ? (
        <ul className="cm-list" aria-label={p.listLabel}>
          {p.windows.map((w, i) => (
            <li key={i} className="cm-row">
              <span className="cm-row__main">{describeQuietWindow(w)}</span>
              <Button size="sm" variant="ghost" icon="trash" onClick={() => p.onRemove(i)}>
                Remove<span className="visually-hidden"> {describeQuietWindow(w)}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        p.emptyText !== null && <p className="muted">{p.emptyText}</p>
      )}
      {p.standalone ? (
        <form
          aria-label={p.addLabel}
          onSubmit={(e) => {
            e.preventDefault();
            p.onAdd(draft);
          }}
        >
          {fields}
        </form>
      ) : (
        <div role="group" aria-label={p.addLabel}>
          {fields}
        </div>
      )}
    </>
  );
}
