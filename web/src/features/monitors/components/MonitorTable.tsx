import type { MonitorSummary } from '@pagewatch/contract';
import { Button } from '../../../components/ui/Button';
import { formatCount } from '../../../lib/format';
import { MonitorRow } from './MonitorRow';
import { useIncremental } from './useIncremental';

export function MonitorTable({
  monitors,
  resetKey,
}: {
  monitors: readonly MonitorSummary[];
  resetKey: string;
}) {
  const { shown, more, sentinel, showMore } = useIncremental(monitors.length, resetKey);
  return (
    <div className="mtable-wrap">
      <table className="mtable" data-testid="monitor-table">
        <caption className="visually-hidden">
          Monitors, {formatCount(monitors.length)} shown. Select a name to open the monitor.
        </caption>
        <thead>
          <tr>
            <th scope="col" className="mtable__status">
              Status
            </th>
            <th scope="col">Monitor</th>
            <th scope="col" className="mtable__num">
              Latency
            </th>
            <th scope="col" className="mtable__num">
              Uptime 24 h
            </th>
            <th scope="col" className="mtable__spark">
              Recent checks
            </th>
            <th scope="col" className="mtable__checked">
              Checked
            </th>
          </tr>
        </thead>
        <tbody>
          {monitors.slice(0, shown).map((m) => (
            <MonitorRow key={m.id} monitor={m} />
          ))}
        </tbody>
      </table>
      {more && (
        <div ref={sentinel} className="mtable__more">
          <Button size="sm" onClick={showMore}>
            Show more ({formatCount(monitors.length - shown)} left)
          </Button>
        </div>
      )}
    </div>
  );
}
