import { useId, useMemo, useState } from 'react';

interface Option {
  id: number;
  name: string;
}

/**
 * Affected monitors as a filterable checkbox list; the value is the chosen ids joined by
 * commas, as the form keeps every value as text.
 */
export function MonitorPicker({
  monitors,
  loading,
  value,
  onChange,
  error,
}: {
  monitors: readonly Option[];
  loading: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value ? value.split(',').map(Number) : []), [value]);
  const shown = monitors.filter((m) => m.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (monitorId: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(monitorId);
    else next.delete(monitorId);
    onChange([...next].join(','));
  };
  return (
    <fieldset className="field mpick" data-field="monitorIds" aria-describedby={`${id}-hint`}>
      <legend className="field__label">
        Affected monitors <span className="field__optional">(optional)</span>
      </legend>
      <p id={`${id}-hint`} className="field__hint">
        {chosen.size > 0
          ? `${chosen.size} chosen. Status pages show the incident on these monitors.`
          : 'Status pages show the incident on the monitors you choose.'}
      </p>
      {monitors.length > 8 && (
        <input
          className="input mpick__filter"
          type="search"
          placeholder="Filter monitors"
          aria-label="Filter monitors"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {loading ? (
        <p className="muted">Loading monitors…</p>
      ) : monitors.length === 0 ? (
        <p className="muted">There are no monitors yet.</p>
      ) : (
        <ul className="mpick__list">
          {shown.map((m) => (
            <li key={m.id}>
              <label className="mpick__option">
                <input
                  type="checkbox"
                  checked={chosen.has(m.id)}
                  onChange={(e) => toggle(m.id, e.target.checked)}
                />
                <span>{m.name}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="field__error">{error}</p>}
    </fieldset>
  );
}
