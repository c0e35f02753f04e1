import '../../../styles/coverage.css';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/Icon';
import { plural } from '../../../lib/format';
import { coverageQuery } from '../api/coverage';

/** "N monitors have no channel", with the list behind a disclosure: they would fail in silence. */
export function CoverageSummary() {
  const { data } = useQuery(coverageQuery());
  if (!data || data.uncovered.length === 0) return null;
  const n = data.uncovered.length;
  return (
    <details className="coverage" data-testid="coverage-summary">
      <summary className="coverage__summary">
        <Icon name="alertTriangle" size={16} />
        <span>
          <strong>{n === 1 ? '1 monitor has' : `${plural(n, 'monitor')} have`} no channel</strong>
          {n === data.monitors ? ' — none of your monitors alerts anyone' : ''}: when{' '}
          {n === 1 ? 'it goes' : 'they go'} down, nobody is told.
        </span>
        <span className="coverage__toggle">Show them</span>
      </summary>
      <ul className="coverage__list">
        {data.uncovered.map((m) => (
          <li key={m.id}>
            <Link to={`/monitors/${m.id}/edit`}>{m.name}</Link>
          </li>
        ))}
      </ul>
      <p className="field__hint">
        Tick a channel in each monitor’s Alerts, or open a channel and attach it to all monitors or
        to a tag.
      </p>
    </details>
  );
}

/** A marker on a dashboard row whose monitor alerts nobody. */
export function NoChannelMarker({ id }: { id: number }) {
  const { data } = useQuery(coverageQuery());
  if (!data?.uncovered.some((m) => m.id === id)) return null;
  return (
    <span className="nochannel" title="No alert channel: nobody is told when it goes down">
      <Icon name="bellOff" size={14} />
      <span className="visually-hidden">No alert channel</span>
    </span>
  );
}
