import { useRef, useState, type DragEvent } from 'react';
import { findComponent, type Draft, type Spot } from '../draft';

type Dragged = { type: 'component'; key: string } | { type: 'section'; index: number };

export interface DropHint {
  /** The component key or `section:<index>` the marker is drawn at. */
  target: string;
  where: 'before' | 'after';
}

interface Moves {
  component(key: string, to: Spot): void;
  section(from: number, to: number): void;
}

const half = (e: DragEvent<HTMLElement>): 'before' | 'after' => {
  const r = e.currentTarget.getBoundingClientRect();
  return e.clientY < r.top + r.height / 2 ? 'before' : 'after';
};

/**
 * HTML drag and drop for components (onto a component, or the end of a section) and sections
 * (onto another section). The handles start drags; rows and lists are drop targets.
 */
export function useDrag(draft: Draft, moves: Moves) {
  const dragged = useRef<Dragged | null>(null);
  const [hint, setHint] = useState<DropHint | null>(null);

  const start = (what: Dragged, row: HTMLElement | null) => (e: DragEvent<HTMLElement>) => {
    dragged.current = what;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', what.type === 'component' ? what.key : `s${what.index}`);
    if (row) e.dataTransfer.setDragImage(row, 16, 16);
  };
  const end = () => {
    dragged.current = null;
    setHint(null);
  };

  /** Drop on a component row: before or after it, by the pointer's half. */
  const onComponent = (key: string) => ({
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (dragged.current?.type !== 'component') return;
      e.preventDefault();
      e.stopPropagation();
      const where = half(e);
      if (hint?.target !== key || hint.where !== where) setHint({ target: key, where });
    },
    onDrop: (e: DragEvent<HTMLElement>) => {
      const d = dragged.current;
      if (d?.type !== 'component') return;
      e.preventDefault();
      e.stopPropagation();
      const from = findComponent(draft, d.key);
      const at = findComponent(draft, key);
      end();
      if (!from || !at || d.key === key) return;
      let index = at.index + (half(e) === 'after' ? 1 : 0);
      if (from.section === at.section && from.index < index) index -= 1;
      moves.component(d.key, { section: at.section, index });
    },
  });

  /** Drop on a section: a component goes to its end; a section takes its place. */
  const onSection = (section: number) => ({
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (!dragged.current) return;
      e.preventDefault();
      const target = `section:${section}`;
      const where = dragged.current.type === 'section' ? half(e) : 'after';
      if (hint?.target !== target || hint.where !== where) setHint({ target, where });
    },
    onDrop: (e: DragEvent<HTMLElement>) => {
      const d = dragged.current;
      if (!d) return;
      e.preventDefault();
      end();
      if (d.type === 'section') {
        moves.section(d.index, section);
        return;
      }
      const size = draft.sections[section]?.components.length ?? 0;
      const from = findComponent(draft, d.key);
      const last = from?.section === section ? size - 1 : size;
      moves.component(d.key, { section, index: last });
    },
  });

  return { hint, start, end, onComponent, onSection };
}
