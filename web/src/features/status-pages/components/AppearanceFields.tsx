import { useId } from 'react';
import { Field } from '../../../components/ui/Field';
import { Segmented } from '../../../components/ui/Segmented';
import { CheckboxField } from '../../monitors/components/form/controls';
import type { Draft } from '../draft';

interface Props {
  draft: Draft;
  set: (patch: Partial<Draft>, path: string) => void;
  errorFor: (path: string) => string | undefined;
}

const modes = [
  { value: 'auto', label: 'Auto' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;

/** What the page shows per component, and its colours. */
export function AppearanceFields({ draft, set, errorFor }: Props) {
  const modeLabel = useId();
  const show = (key: keyof Draft['show'], value: boolean) =>
    set({ show: { ...draft.show, [key]: value } }, `show.${key}`);
  const accent = draft.theme.accent;
  const validHex = /^#[0-9a-fA-F]{6}$/.test(accent);
  return (
    <>
      <fieldset className="field">
        <legend className="field__label">Each component shows</legend>
        <div className="sp-checks">
          <CheckboxField
            name="show.uptimeBars"
            label="90-day uptime bars"
            checked={draft.show.uptimeBars}
            onChange={(v) => show('uptimeBars', v)}
          />
          <CheckboxField
            name="show.latencyChart"
            label="Response time chart"
            checked={draft.show.latencyChart}
            onChange={(v) => show('latencyChart', v)}
          />
          <CheckboxField
            name="show.currentLatency"
            label="Current latency"
            checked={draft.show.currentLatency}
            onChange={(v) => show('currentLatency', v)}
          />
          <CheckboxField
            name="show.monthlyUptime"
            label="Uptime per month, last 12 months"
            checked={draft.show.monthlyUptime}
            onChange={(v) => show('monthlyUptime', v)}
          />
        </div>
      </fieldset>
      <div className="form__grid">
        <div className="field">
          <span className="field__label" id={modeLabel}>
            Theme
          </span>
          <Segmented
            label="Theme"
            value={draft.theme.mode}
            options={modes}
            onChange={(mode) => set({ theme: { ...draft.theme, mode } }, 'theme.mode')}
          />
          <p className="field__hint">Auto follows each visitor’s system setting.</p>
        </div>
        <Field
          name="theme.accent"
          label="Accent colour"
          error={errorFor('theme.accent')}
          hint="Links, bars and buttons on the page."
        >
          {(p) => (
            <div className="sp-colour">
              <input
                type="color"
                className="sp-colour__swatch"
                aria-label="Accent colour picker"
                value={validHex ? accent.toLowerCase() : '#000000'}
                onChange={(e) => set({ theme: { ...draft.theme, accent: e.target.value } }, p.name)}
              />
              <input
                {...p}
                className="input mono"
                autoComplete="off"
                spellCheck={false}
                maxLength={7}
                value={accent}
                onChange={(e) => set({ theme: { ...draft.theme, accent: e.target.value } }, p.name)}
              />
            </div>
          )}
        </Field>
      </div>
    </>
  );
}
