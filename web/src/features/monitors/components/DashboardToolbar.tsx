import type { MonitorType } from '@pagewatch/contract';
import { Icon } from '../../../components/ui/Icon';
import { kindDisplays } from '../kinds/display';
import { sortOptions, type SortKey } from '../dashboard-filter';

interface DashboardToolbarProps {
  query: string;
  tag: string | null;
  type: MonitorType | null;
  sort: SortKey;
  tags: readonly string[];
  types: readonly MonitorType[];
  onQuery: (query: string) => void;
  onTag: (tag: string | null) => void;
  onType: (type: MonitorType | null) => void;
  onSort: (sort: SortKey) => void;
}

export function DashboardToolbar({
  query,
  tag,
  type,
  sort,
  tags,
  types,
  onQuery,
  onTag,
  onType,
  onSort,
}: DashboardToolbarProps) {
  return (
    <div className="toolbar" role="search">
      <div className="search">
        <Icon name="search" />
        <label htmlFor="monitor-search" className="visually-hidden">
          Search monitors
        </label>
        <input
          id="monitor-search"
          type="search"
          className="input search__input"
          placeholder="Search name, address or tag"
          value={query}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onQuery(event.target.value)}
        />
      </div>
      <div className="toolbar__selects">
        <label className="select-label">
          <span>Tag</span>
          <select
            className="input select"
            value={tag ?? ''}
            onChange={(event) => onTag(event.target.value === '' ? null : event.target.value)}
          >
            <option value="">All tags</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
            {tag !== null && !tags.includes(tag) && <option value={tag}>{tag}</option>}
          </select>
        </label>
        <label className="select-label">
          <span>Type</span>
          <select
            className="input select"
            value={type ?? ''}
            onChange={(event) =>
              onType(event.target.value === '' ? null : (event.target.value as MonitorType))
            }
          >
            <option value="">All types</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {kindDisplays[t].label}
              </option>
            ))}
            {type !== null && !types.includes(type) && (
              <option value={type}>{kindDisplays[type].label}</option>
            )}
          </select>
        </label>
        <label className="select-label">
          <span>Sort</span>
          <select
            className="input select"
            value={sort}
            onChange={(event) => onSort(event.target.value as SortKey)}
          >
            {sortOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}
