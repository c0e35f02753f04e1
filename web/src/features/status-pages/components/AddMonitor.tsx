import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';

export interface PickableMonitor {
  id: number;
  name: string;
  target: string;
}

const SHOWN = 50;

/** "Add monitor": a searchable list of the monitors not yet on the page. */
export function AddMonitor({
  sectionName,
  available,
  loading,
  onAdd,
}: {
  sectionName: string;
  available: readonly PickableMonitor[];
  loading: boolean;
  onAdd: (m: PickableMonitor) => void;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (open) search.current?.focus();
    else if (returnFocus) {
      opener.current?.focus();
      setReturnFocus(false);
    }
  }, [open, returnFocus]);
  const close = () => {
    setOpen(false);
    setQuery('');
    setReturnFocus(true);
  };
  const q = query.trim().toLowerCase();
  const matches = available.filter((m) => `${m.name} ${m.target}`.toLowerCase().includes(q));

  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        className="btn btn--secondary btn--sm sp-add"
        aria-label={`Add monitor to ${sectionName}`}
        onClick={() => setOpen(true)}
      >
        <Icon name="plus" />
        Add monitor
      </button>
    );
  }
  return (
    <div
      className="sp-picker"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          close();
        }
      }}
    >
      <div className="sp-picker__head">
        <input
          ref={search}
          type="search"
          className="input"
          placeholder="Search monitors"
          aria-label={`Search monitors to add to ${sectionName}`}
          aria-controls={listId}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <Button size="sm" variant="ghost" onClick={close}>
          Done
        </Button>
      </div>
      <ul id={listId} className="sp-picker__list" aria-label="Monitors not on the page">
        {loading && <li className="muted">Loading monitors…</li>}
        {!loading && matches.length === 0 && (
          <li className="muted">
            {available.length === 0
              ? 'Every monitor is already on the page.'
              : 'No monitor matches.'}
          </li>
        )}
        {matches.slice(0, SHOWN).map((m) => (
          <li key={m.id}>
            <button type="button" className="sp-picker__item" onClick={() => onAdd(m)}>
              <span className="sp-picker__name">{m.name}</span>
              <span className="sp-picker__target muted">{m.target}</span>
            </button>
          </li>
        ))}
        {matches.length > SHOWN && (
          <li className="muted">{matches.length - SHOWN} more: type to narrow the list.</li>
        )}
      </ul>
    </div>
  );
}
