import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { monitorNamesQuery } from '../../monitors/api/queries';
import type { ControlProps } from '../../../components/ui/Field';

/**
 * Checkboxes over every monitor, with a filter for long lists; `value` is "1,2,3". `exclude`
 * leaves one monitor out of the list (a monitor's own form: it cannot be its own parent or
 * member).
 */
export function MonitorPicker({
  control,
  value,
  onChange,
  exclude = null,
}: {
  control: ControlProps;
  value: string;
  onChange: (value: string) => void;
  exclude?: number | null;
}) {
  const { data, isPending } = useQuery(monitorNamesQuery());
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(value.split(',').filter(Boolean).map(Number)), [value]);
  // A monitor deleted since the window was saved can be neither seen nor unticked: drop it.
  useEffect(() => {
    if (!data) return;
    const known = new Set(data.items.map((m) => m.id));
    if ([...chosen].some((id) => !known.has(id))) {
      onChange([...chosen].filter((id) => known.has(id)).join(','));
    }
  }, [data, chosen, onChange]);
  const items = (data?.items ?? []).filter(
    (m) =>
      m.id !== exclude &&
      `${m.name} ${m.target}`.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange([...next].sort((a, b) => a - b).join(','));
  };
  return (
    <div className="mw-picker">
      <input
        id={control.id}
        aria-describedby={control['aria-describedby']}
        aria-invalid={control['aria-invalid']}
        className="input"
        type="search"
        placeholder="Filter monitors"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <p className="mw-picker__count muted" aria-live="polite">
        {chosen.size === 0 ? 'None chosen' : `${chosen.size} chosen`}
      </p>
      <ul className="mw-picker__list" aria-label="Monitors">
        {isPending && <li className="muted">Loading monitors…</li>}
        {!isPending && items.length === 0 && <li className="muted">No monitor matches.</li>}
        {items.map((m) => (
          <li key={m.id}>
            <label className="mw-picker__item">
              <input
                type="checkbox"
                checked={chosen.has(m.id)}
                onChange={(e) => toggle(m.id, e.target.checked)}
              />
              <span className="mw-picker__name">{m.name}</span>
              <span className="mw-picker__target muted">{m.target}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
