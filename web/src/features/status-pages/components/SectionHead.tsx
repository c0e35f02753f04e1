import type { DragEvent, KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/Button';
import { TextInputField } from '../../monitors/components/form/controls';
import { Grip } from './Grip';

interface SectionHeadProps {
  sectionKey: string;
  index: number;
  count: number;
  name: string;
  title: string;
  error: string | undefined;
  hintId: string;
  onTitle: (title: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  onDragStart: (e: DragEvent<HTMLElement>) => void;
  onDragEnd: () => void;
}

/** A section's handle, title and buttons; Alt+↑/↓ on the handle moves the section. */
export function SectionHead(p: SectionHeadProps) {
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    p.onMove(p.index + (e.key === 'ArrowUp' ? -1 : 1));
  };
  return (
    <div className="sp-section__head">
      <button
        type="button"
        className="sp-handle"
        draggable
        data-handle={p.sectionKey}
        aria-label={`Reorder section ${p.name}`}
        aria-describedby={p.hintId}
        onKeyDown={onKeyDown}
        onDragStart={p.onDragStart}
        onDragEnd={p.onDragEnd}
      >
        <Grip />
      </button>
      <TextInputField
        name={`sections.${p.index}.title`}
        label="Section title"
        className="sp-section__title"
        error={p.error}
        kind="text"
        input={{ value: p.title, onChange: (e) => p.onTitle(e.target.value) }}
      />
      <div className="sp-section__actions">
        <Button
          size="sm"
          variant="ghost"
          icon="chevronUp"
          aria-label={`Move section ${p.name} up`}
          disabled={p.index === 0}
          onClick={() => p.onMove(p.index - 1)}
        />
        <Button
          size="sm"
          variant="ghost"
          icon="chevronDown"
          aria-label={`Move section ${p.name} down`}
          disabled={p.index === p.count - 1}
          onClick={() => p.onMove(p.index + 1)}
        />
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          aria-label={`Remove section ${p.name}`}
          onClick={p.onRemove}
        />
      </div>
    </div>
  );
}
