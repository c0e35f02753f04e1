import type { IncidentListFilter } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Icon } from '../../../components/ui/Icon';
import { monitorNamesQuery } from '../../monitors/api/queries';

export const stateOptions: readonly { value: IncidentListFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];

/** The list's filters as the URL holds them: dates are local days (YYYY-MM-DD). */
export interface IncidentFilterParams {
  state: IncidentListFilter;
  q: string;
  monitor: string;
  from: string;
  to: string;
}

/** Search, state, monitor and the days incidents started on; each change replaces the URL. */
export function IncidentFilters({
  value,
  onChange,
}: {
  value: IncidentFilterParams;
  onChange: (key: keyof IncidentFilterParams, value: string) => void;
}) {
  const names = useQuery(monitorNamesQuery());
  return (
    <div className="toolbar ifilter" role="search">
      <div className="search">
        <Icon name="search" />
        <label htmlFor="incident-search" className="visually-hidden">
          Search incidents
        </label>
        <input
          id="incident-search"
          type="search"
          className="input search__input"
          placeholder="Search titles"
          value={value.q}
          autoComplete="off"
          onChange={(e) => onChange('q', e.target.value)}
        />
      </div>
      <div className="ifilter__selects">
        <label className="select-label">
          State
          <select
            className="input select"
            aria-label="State"
            value={value.state}
            onChange={(e) => onChange('state', e.target.value)}
          >
            {stateOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className="select-label">
          Monitor
          <select
            className="input select"
            aria-label="Monitor"
            value={value.monitor}
            onChange={(e) => onChange('monitor', e.target.value)}
          >
            <option value="">Any monitor</option>
            {(names.data?.items ?? []).map((m) => (
              <option key={m.id} value={String(m.id)}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label className="select-label">
          From
          <input
            type="date"
            className="input"
            aria-label="From"
            value={value.from}
            max={value.to || undefined}
            onChange={(e) => onChange('from', e.target.value)}
          />
        </label>
        <label className="select-label">
          To
          <input
            type="date"
            className="input"
            aria-label="To"
            value={value.to}
            min={value.from || undefined}
            onChange={(e) => onChange('to', e.target.value)}
          />
        </label>
      </div>
    </div>
  );
}
