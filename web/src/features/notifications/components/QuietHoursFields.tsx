import '../../../styles/contact-methods.css';
import type { QuietHoursWindow } from '@pagewatch/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { offeredTimeZones } from '../../../lib/time-zones';
import {
  CheckboxField,
  SelectField,
  TextInputField,
} from '../../monitors/components/form/controls';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const describe = (w: QuietHoursWindow) =>
  `${w.days.map((d) => DAYS[d]).join(', ')} ${w.from}–${w.to} (${w.timeZone})`;

interface Props {
  windows: QuietHoursWindow[];
  rerouteChannelId: string;
  /** Other channels a warning may go to during the windows. */
  channels: { value: string; label: string }[];
  error?: string | undefined;
  onChange: (p: { quietWindows?: QuietHoursWindow[]; quietRerouteChannelId?: string }) => void;
}

/**
 * The channel form's quiet hours (ADR 68): windows when warnings wait for the end, or go to
 * another channel at once; critical alerts always go through. Part of the channel's form, so
 * windows are saved with the channel.
 */
export function QuietHoursFields({ windows, rerouteChannelId, channels, error, onChange }: Props) {
  const [draft, setDraft] = useState<QuietHoursWindow>(() => ({
    days: [1, 2, 3, 4, 5],
    from: '22:00',
    to: '07:00',
    timeZone: browserZone(),
  }));
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Quiet hours</legend>
      <p className="muted">
        During these windows, warnings wait until the window ends or go to another channel; critical
        alerts always go through. Nothing is dropped.
      </p>
      {windows.length > 0 ? (
        <ul className="cm-list" aria-label="Quiet hours of this channel">
          {windows.map((w, i) => (
            <li key={i} className="cm-row">
              <span className="cm-row__main">{describe(w)}</span>
              <Button
                size="sm"
                variant="ghost"
                icon="trash"
                onClick={() => onChange({ quietWindows: windows.filter((_, j) => j !== i) })}
              >
                Remove<span className="visually-hidden"> {describe(w)}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No quiet hours: every message goes at once.</p>
      )}
      <div role="group" aria-label="Add a quiet-hours window">
        <fieldset className="cm-days">
          <legend className="field__label">Days the window starts on</legend>
          {DAYS.map((d, i) => (
            <CheckboxField
              key={d}
              name={`quiet-day-${i}`}
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
            name="quietFrom"
            label="From"
            kind="code"
            input={{
              value: draft.from,
              onChange: (e) => setDraft({ ...draft, from: e.target.value }),
            }}
          />
          <TextInputField
            name="quietTo"
            label="To"
            hint="Before From: over midnight."
            kind="code"
            input={{ value: draft.to, onChange: (e) => setDraft({ ...draft, to: e.target.value }) }}
          />
          <SelectField
            name="quietTimeZone"
            label="Time zone"
            value={draft.timeZone}
            options={offeredTimeZones(draft.timeZone)}
            onChange={(timeZone) => setDraft({ ...draft, timeZone })}
          />
        </div>
        <div className="actions__buttons section-gap">
          <Button
            icon="plus"
            disabled={draft.days.length === 0}
            onClick={() => onChange({ quietWindows: [...windows, draft] })}
          >
            Add window
          </Button>
        </div>
      </div>
      <div className="form__grid section-gap">
        <SelectField
          name="quietRerouteChannelId"
          label="During quiet hours, warnings"
          error={error}
          value={rerouteChannelId}
          options={[
            { value: '', label: 'Wait until the window ends' },
            ...channels.map((c) => ({ value: c.value, label: `Go to ${c.label} at once` })),
          ]}
          onChange={(quietRerouteChannelId) => onChange({ quietRerouteChannelId })}
        />
      </div>
    </fieldset>
  );
}
