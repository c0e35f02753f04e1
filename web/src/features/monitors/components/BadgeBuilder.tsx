import {
  BadgeOptions,
  badgeLimits,
  badgeStyles,
  badgeWindows,
  type BadgeStyle,
  type MonitorBadges,
} from '@pagewatch/contract';
import { useId, useState } from 'react';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Field } from '../../../components/ui/Field';
import { Segmented } from '../../../components/ui/Segmented';
import { badgeSnippets, windowLabels, type BadgeChoice } from '../badge-snippets';

const styleLabels: Record<BadgeStyle, string> = {
  flat: 'Flat',
  'flat-square': 'Flat square',
  plastic: 'Plastic',
  'for-the-badge': 'For the badge',
  social: 'Social',
};

const showsOptions = [
  { value: 'status', label: 'Status' },
  { value: 'uptime', label: 'Uptime' },
] as const;

const windowOptions = badgeWindows.map((w) => ({ value: w, label: windowLabels[w] }));

/** The badge's live preview: the real address, so what shows is what other sites get. */
function Preview({ path, alt }: { path: string; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <div className="badge-builder__preview" aria-label="Preview" role="group">
      {failed === path ? (
        <p className="muted">The badge could not be loaded. Reload the page and try again.</p>
      ) : (
        <img src={path} alt={alt} onError={() => setFailed(path)} />
      )}
    </div>
  );
}

function CodeRow({ title, text }: { title: string; text: string }) {
  const id = useId();
  return (
    <div className="badge-code">
      <label htmlFor={id} className="field__label">
        {title}
      </label>
      <div className="badge-code__row">
        <input
          id={id}
          className="input mono badge-code__input"
          readOnly
          value={text}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={text} label={`Copy ${title}`} size="sm" />
      </div>
    </div>
  );
}

/** Choose what the badge shows and how it looks; copy it as Markdown, HTML or a URL. */
export function BadgeBuilder({
  monitor,
  info,
}: {
  monitor: { id: number; name: string };
  info: MonitorBadges;
}) {
  const [choice, setChoice] = useState<BadgeChoice>({
    shows: 'status',
    window: '30d',
    style: 'flat',
    label: '',
  });
  const set = (patch: Partial<BadgeChoice>) => setChoice((c) => ({ ...c, ...patch }));
  const checked = BadgeOptions.shape.label.safeParse(choice.label);
  const labelError = checked.success ? undefined : checked.error.issues[0]?.message;
  const s = badgeSnippets(
    monitor,
    info,
    labelError ? { ...choice, label: '' } : choice,
    window.location.origin,
  );
  return (
    <div className="badge-builder">
      <div className="badge-builder__choose">
        <div className="field">
          <span className="field__label" aria-hidden="true">
            Shows
          </span>
          <Segmented
            label="Shows"
            value={choice.shows}
            options={showsOptions}
            onChange={(shows) => set({ shows })}
          />
        </div>
        {choice.shows === 'uptime' && (
          <div className="field">
            <span className="field__label" aria-hidden="true">
              Over
            </span>
            <Segmented
              label="Uptime over"
              value={choice.window}
              options={windowOptions}
              onChange={(w) => set({ window: w })}
            />
          </div>
        )}
      </div>
      <div className="badge-builder__controls">
        <Field name="style" label="Style">
          {(p) => (
            <select
              {...p}
              className="input select"
              value={choice.style}
              onChange={(e) => set({ style: e.target.value as BadgeStyle })}
            >
              {badgeStyles.map((st) => (
                <option key={st} value={st}>
                  {styleLabels[st]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          name="label"
          label="Label"
          optional
          hint={`Leave empty for “${info.label ?? monitor.name}”, as the status page names it.`}
          error={labelError}
        >
          {(p) => (
            <input
              {...p}
              className="input"
              value={choice.label}
              maxLength={badgeLimits.labelMax}
              autoComplete="off"
              onChange={(e) => set({ label: e.target.value })}
            />
          )}
        </Field>
      </div>
      <Preview path={s.path} alt={s.alt} />
      <div className="badge-builder__codes">
        <CodeRow title="Markdown" text={s.markdown} />
        <CodeRow title="HTML" text={s.html} />
        <CodeRow title="URL" text={s.url} />
      </div>
    </div>
  );
}
