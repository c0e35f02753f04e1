import type { ClusterMemberView } from '@pagewatch/contract';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { formatAge, formatCount, formatDateTime } from '../../../../lib/format';
import { formatMiB, formatRate, formatShare } from '../../cluster';

interface ClusterMemberRowProps {
  member: ClusterMemberView;
  /** The process that answered: the one this browser talks to. */
  isSelf: boolean;
  totalPartitions: number;
}

const dash = <span className="muted">—</span>;

/** One live process: who it is, the leases it holds and what it is doing. */
export function ClusterMemberRow({ member: m, isSelf, totalPartitions }: ClusterMemberRowProps) {
  return (
    <tr className="cmember" data-testid="cluster-member" data-name={m.name}>
      <th scope="row" className="cmember__process">
        <span className="cmember__head">
          <span className="cmember__name">{m.name}</span>
          {isSelf && <span className="cmember__self">this process</span>}
        </span>
        <span className="cmember__id mono" title={m.id}>
          {m.id.slice(0, 8)}
        </span>
      </th>
      <td className="cmember__roles" data-label="Roles">
        {m.roles.length > 0 ? m.roles.join(', ') : dash}
      </td>
      <td className="mono" data-label="Version">
        {m.version}
      </td>
      <td className="cmember__num" data-label="Capacity">
        {formatCount(m.capacity)}
      </td>
      <td className="cmember__num" data-label="Partitions">
        {formatCount(m.partitions)}
        <span className="cmember__share">{formatShare(m.partitions, totalPartitions)}</span>
      </td>
      <td data-label="Singletons">
        {m.singletons.length > 0 ? (
          <ul className="ctags">
            {m.singletons.map((s) => (
              <li key={s} className="ctag">
                {s}
              </li>
            ))}
          </ul>
        ) : (
          dash
        )}
      </td>
      <td className="cmember__time" data-label="Heartbeat">
        <time dateTime={m.lastHeartbeat} title={formatDateTime(m.lastHeartbeat)}>
          {formatAge(m.heartbeatAgeMs)}
        </time>
      </td>
      <td className="cmember__time" data-label="Started">
        <RelativeTime iso={m.startedAt} />
      </td>
      <td data-label="Load">
        {m.load ? (
          <ul className="cload">
            <li>
              <b>{formatCount(m.load.monitors)}</b> monitors
            </li>
            <li>
              <b>{formatRate(m.load.checksPerMinute)}</b> checks/min
            </li>
            <li>
              <b>{formatCount(m.load.inFlight)}</b> in flight
            </li>
            <li>
              <b>{formatMiB(m.load.rssBytes)}</b> MiB
            </li>
          </ul>
        ) : (
          <span className="muted">Not reported yet</span>
        )}
      </td>
    </tr>
  );
}
