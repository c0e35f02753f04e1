import type { ProbeView } from '@pagewatch/contract';
import { Button } from '../../../../components/ui/Button';
import { RelativeTime } from '../../../../components/ui/RelativeTime';

const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)} ms`);
const offset = (v: number | null) =>
  v === null ? '—' : `${v > 0 ? '+' : ''}${(v / 1000).toFixed(1)} s`;

/** One probe: whether it is heard from, what its last heartbeat said, and its token actions. */
export function ProbeRow({
  probe,
  onRotate,
  onRevoke,
}: {
  probe: ProbeView;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  return (
    <tr>
      <th scope="row">
        {probe.name}
        {probe.host && <span className="muted"> · {probe.host}</span>}
      </th>
      <td data-label="State">
        <span className={`loc-pill ${probe.online ? 'loc-pill--up' : 'loc-pill--down'}`}>
          {probe.online ? 'Online' : 'Offline'}
        </span>
      </td>
      <td data-label="Version">{probe.version ?? '—'}</td>
      <td data-label="Last heartbeat">
        {probe.lastHeartbeatAt ? <RelativeTime iso={probe.lastHeartbeatAt} /> : 'Never'}
      </td>
      <td data-label="Clock offset" className={probe.clockWarning ? 'loc-warn' : undefined}>
        {offset(probe.clockOffsetMs)}
        {probe.clockWarning && ' (check NTP)'}
      </td>
      <td data-label="Load">{probe.load === null ? '—' : `${Math.round(probe.load * 100)} %`}</td>
      <td data-label="Lateness p99">{ms(probe.latenessP99Ms)}</td>
      <td data-label="Spool">
        {probe.spoolDepth ?? '—'}
        {probe.spoolDropped ? ` (${probe.spoolDropped} dropped)` : ''}
      </td>
      <td>
        <div className="loc-actions">
          <Button size="sm" onClick={onRotate}>
            Rotate token
          </Button>
          <Button size="sm" variant="danger" onClick={onRevoke}>
            Revoke
          </Button>
        </div>
      </td>
    </tr>
  );
}
