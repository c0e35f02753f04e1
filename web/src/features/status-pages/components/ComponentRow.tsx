import type { DragEvent, KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { CheckboxField, TextInputField } from '../../monitors/components/form/controls';
import type { DraftComponent } from '../draft';
import { Grip } from './Grip';

interface ComponentRowProps {
  component: DraftComponent;
  /** Dotted path of this component in the API input, for its errors. */
  path: string;
  errorFor: (path: string) => string | undefined;
  sections: { title: string }[];
  section: number;
  first: boolean;
  last: boolean;
  hintId: string;
  drop: 'before' | 'after' | null;
  dropTarget: {
    onDragOver: (e: DragEvent<HTMLElement>) => void;
    onDrop: (e: DragEvent<HTMLElement>) => void;
  };
  onDragStart: (row: HTMLElement | null) => (e: DragEvent<HTMLElement>) => void;
  onDragEnd: () => void;
  onChange: (patch: Partial<DraftComponent>) => void;
  onStep: (step: -1 | 1) => void;
  onMoveTo: (section: number) => void;
  onRemove: () => void;
}

export const componentLabel = (c: DraftComponent) => c.displayName.trim() || c.monitorName;

/** One monitor on the page: its handle, names, and the buttons that move or remove it. */
export function ComponentRow(p: ComponentRowProps) {
  const c = p.component;
  const name = componentLabel(c);
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    p.onStep(e.key === 'ArrowUp' ? -1 : 1);
  };
  const monitorError = p.errorFor(`${p.path}.monitorId`);
  return (
    <li
      className={`sp-comp${p.drop ? ` sp-drop-${p.drop}` : ''}`}
      data-testid="status-component"
      data-key={c.key}
      {...p.dropTarget}
    >
      <button
        type="button"
        className="sp-handle"
        draggable
        data-handle={c.key}
        aria-label={`Reorder ${name}`}
        aria-describedby={p.hintId}
        onKeyDown={onKeyDown}
        onDragStart={(e) => p.onDragStart(e.currentTarget.closest('li'))(e)}
        onDragEnd={p.onDragEnd}
      >
        <Grip />
      </button>
      <div className="sp-comp__body">
        <p className="sp-comp__monitor">
          <Icon name="activity" size={14} />
          <span>{c.monitorName}</span>
        </p>
        {monitorError && (
          <p className="field__error" role="alert">
            <Icon name="alertCircle" size={14} />
            {monitorError}
          </p>
        )}
        <div className="sp-comp__fields">
          <TextInputField
            name={`${p.path}.displayName`}
            label="Display name"
            optional
            error={p.errorFor(`${p.path}.displayName`)}
            kind="text"
            input={{
              value: c.displayName,
              placeholder: c.monitorName,
              onChange: (e) => p.onChange({ displayName: e.target.value }),
            }}
          />
          <TextInputField
            name={`${p.path}.description`}
            label="Description"
            optional
            error={p.errorFor(`${p.path}.description`)}
            kind="text"
            input={{
              value: c.description,
              onChange: (e) => p.onChange({ description: e.target.value }),
            }}
          />
        </div>
        <CheckboxField
          name={`${p.path}.showLocations`}
          label="Show each location’s status"
          hint="When its monitor runs in more than one location; the failing ones are named."
          checked={c.showLocations}
          onChange={(v) => p.onChange({ showLocations: v })}
        />
      </div>
      <div className="sp-comp__actions">
        <Button
          size="sm"
          variant="ghost"
          icon="chevronUp"
          aria-label={`Move ${name} up`}
          disabled={p.first}
          onClick={() => p.onStep(-1)}
        />
        <Button
          size="sm"
          variant="ghost"
          icon="chevronDown"
          aria-label={`Move ${name} down`}
          disabled={p.last}
          onClick={() => p.onStep(1)}
        />
        {p.sections.length > 1 && (
          <select
            className="input select sp-comp__section"
            aria-label={`Section of ${name}`}
            value={p.section}
            onChange={(e) => p.onMoveTo(Number(e.target.value))}
          >
            {p.sections.map((s, i) => (
              <option key={i} value={i}>
                {s.title.trim() || `Section ${i + 1}`}
              </option>
            ))}
          </select>
        )}
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          aria-label={`Remove ${name}`}
          onClick={p.onRemove}
        />
      </div>
    </li>
  );
}
