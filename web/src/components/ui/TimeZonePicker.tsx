import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { offeredTimeZones, offsetLabel, searchTimeZones } from '../../lib/time-zones';
import type { ControlProps } from './Field';

const SHOWN = 60;
const label = (zone: string) => zone.replaceAll('_', ' ');

/**
 * A time zone field that finds zones by city as typed ("Kolkata", "Mumbai", "Kyiv"), offering
 * current IANA names only; a combobox with a list of matches (WAI-ARIA combobox pattern).
 */
export function TimeZonePicker({
  value,
  onChange,
  ...control
}: ControlProps & { value: string; onChange: (zone: string) => void }) {
  const zones = useMemo(() => offeredTimeZones(value), [value]);
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const open = text !== null;
  const matches = useMemo(
    () => (open ? searchTimeZones(zones, text).slice(0, SHOWN) : []),
    [open, zones, text],
  );

  const choose = (zone: string) => {
    onChange(zone);
    setText(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setText('');
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => Math.max(0, Math.min(matches.length - 1, i + step)));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      const pick = matches[active];
      if (pick) choose(pick.zone);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setText(null);
    }
  };

  return (
    <div className="tzpicker">
      <input
        {...control}
        ref={inputRef}
        type="text"
        className="input"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && matches[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type a city, e.g. Mumbai"
        value={open ? text : label(value)}
        onFocus={(e) => {
          setText('');
          setActive(0);
          e.currentTarget.select();
        }}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        // A click on an option lands first (pointerdown keeps the focus, see below).
        onBlur={() => setText(null)}
      />
      <ul id={listId} role="listbox" className="tzpicker__list" hidden={!open}>
        {matches.length === 0 && open && (
          <li className="tzpicker__none" role="presentation">
            No time zone or city matches “{text}”
          </li>
        )}
        {matches.map((m, i) => (
          <li
            key={m.zone}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="tzpicker__option"
            onPointerDown={(e) => e.preventDefault()}
            onClick={() => {
              choose(m.zone);
              inputRef.current?.blur();
            }}
          >
            <span>
              {label(m.zone)}
              {m.via && <span className="tzpicker__via"> · {m.via}</span>}
            </span>
            <span className="tzpicker__offset">{offsetLabel(m.zone)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
