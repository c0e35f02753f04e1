// The picker's own look lives with maintenance, where it was first used.
import '../../styles/maintenance.css';
import '../../styles/dependencies.css';
import { MonitorPicker } from '../maintenance/components/MonitorPicker';
import { Field } from '../../components/ui/Field';
import type { DependencyDraft } from './useDependencyDraft';

/**
 * The monitor form's Dependencies: parents whose outage holds this monitor's alerts (ADR 41)
 * and how its alerts are grouped into one message (ADR 42).
 */
export function DependenciesSection({
  draft,
  monitorId,
}: {
  draft: DependencyDraft;
  /** The monitor being edited, left out of its own parents; null while creating. */
  monitorId: number | null;
}) {
  return (
    <fieldset className="form__section" id="dependencies" data-testid="dependencies-section">
      <legend className="form__legend">Dependencies</legend>
      <Field
        name="parentIds"
        label="Depends on"
        optional
        hint="While one of these is down, this monitor is still checked but does not alert; its recovery always does."
        error={draft.error ?? undefined}
      >
        {(control) => (
          <MonitorPicker
            control={control}
            value={draft.parents}
            onChange={(value) => draft.setParents(value)}
            exclude={monitorId}
          />
        )}
      </Field>
      <div className="deps-grouping">
        <Field
          name="groupTag"
          label="Group alerts by tag"
          optional
          hint="Down and up alerts of monitors with this tag within the window become one message. Empty: grouped with its dependency root."
        >
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="off"
              value={draft.grouping.tag}
              onChange={(e) => draft.setGrouping({ ...draft.grouping, tag: e.target.value })}
            />
          )}
        </Field>
        <Field
          name="groupWindowS"
          label="Grouping window (seconds)"
          hint="How long alerts are collected before the message goes out."
          error={draft.windowError ?? undefined}
        >
          {(control) => (
            <input
              {...control}
              className="input deps-grouping__window"
              inputMode="numeric"
              value={draft.grouping.windowS}
              onChange={(e) => draft.setGrouping({ ...draft.grouping, windowS: e.target.value })}
            />
          )}
        </Field>
      </div>
    </fieldset>
  );
}
