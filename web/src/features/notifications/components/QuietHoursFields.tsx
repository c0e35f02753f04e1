import type { QuietHoursWindow } from '@pagewatch/contract';
import { QuietWindowsEditor } from '../../escalation/components/QuietWindowsEditor';
import { SelectField } from '../../monitors/components/form/controls';

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
  return (
    <fieldset className="form__section">
      <legend className="form__legend">Quiet hours</legend>
      <p className="muted">
        During these windows, warnings wait until the window ends or go to another channel; critical
        alerts always go through. Nothing is dropped.
      </p>
      <QuietWindowsEditor
        windows={windows}
        onAdd={(w) => onChange({ quietWindows: [...windows, w] })}
        onRemove={(i) => onChange({ quietWindows: windows.filter((_, j) => j !== i) })}
        listLabel="Quiet hours of this channel"
        emptyText="No quiet hours: every message goes at once."
        addLabel="Add a quiet-hours window"
        buttonLabel="Add window"
        namePrefix="quiet"
        initialDays={[1, 2, 3, 4, 5]}
      />
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
