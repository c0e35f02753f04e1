import type { Delivery, DeliveryState } from '@pagewatch/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice } from '../../../components/ui/Notice';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import type { DeliveryFilter } from '../api/keys';
import { useRetryDelivery } from '../api/mutations';
import { deliveryListQuery } from '../api/queries';
import { deliveryRoute } from '../delivery-route';
import { KindBadge } from './KindBadge';

const stateLabels: Record<DeliveryState, string> = {
  queued: 'Queued',
  retrying: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
};

const eventLabels: Record<string, string> = {
  'monitor.down': 'Down',
  'monitor.up': 'Recovered',
  'monitor.degraded': 'Degraded',
  'monitor.regional': 'Regional',
  'monitor.still_down': 'Still down',
  'monitor.flapping': 'Flapping',
  'monitor.settled': 'Settled',
  'heartbeat.missed': 'Heartbeat missed',
  'certificate.expiring': 'Certificate expiring',
  'incident.created': 'Incident opened',
  'incident.updated': 'Incident update',
  'incident.resolved': 'Incident resolved',
  'slo.burning': 'SLO burning',
  'slo.recovered': 'SLO recovered',
  'channel.failing': 'Channel failing',
  'channel.recovered': 'Channel recovered',
  test: 'Test',
};

interface DeliveriesTableProps {
  filter: DeliveryFilter;
  /** Owners and admins may send a failed delivery again. */
  canRetry: boolean;
  showMonitor?: boolean;
  limit?: number;
}

function Row({
  d,
  canRetry,
  showMonitor,
}: {
  d: Delivery;
  canRetry: boolean;
  showMonitor: boolean;
}) {
  const retry = useRetryDelivery();
  const retryable = d.state === 'failed' || d.state === 'retrying';
  const route = deliveryRoute(d.event);
  return (
    <tr>
      <td>
        <span className="dl-event">{eventLabels[d.event.kind] ?? d.event.kind}</span>{' '}
        <span className="muted">
          <RelativeTime iso={d.createdAt} />
        </span>
      </td>
      {showMonitor && (
        <td data-label="Monitor">
          {d.event.monitor ? (
            <Link to={`/monitors/${d.event.monitor.id}`}>{d.event.monitor.name}</Link>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
      )}
      <td data-label="Channel">
        {d.channel ? (
          <span className="dl-channel">
            <KindBadge kind={d.channel.kind} compact />
            <span className="dl-channel__name">{d.channel.name}</span>
          </span>
        ) : (
          <span className="muted">Deleted channel</span>
        )}
        {route && <span className="dl-route">{route}</span>}
      </td>
      <td data-label="State">
        <span className={`dstate dstate--${d.state}`}>{stateLabels[d.state]}</span>
      </td>
      <td data-label="Attempts">{d.attempts}</td>
      <td data-label="Next attempt">
        {d.state === 'queued' || d.state === 'retrying' ? (
          <RelativeTime iso={d.nextAttemptAt} />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-label="Last error" className="dl-error">
        {d.lastError ? <code>{d.lastError}</code> : <span className="muted">—</span>}
        {retry.error && <ErrorNotice error={retry.error} />}
      </td>
      <td className="dl-actions">
        {canRetry && retryable && (
          <Button
            size="sm"
            icon="refresh"
            busy={retry.isPending}
            onClick={() => retry.mutate(d.id)}
          >
            Retry now
          </Button>
        )}
      </td>
    </tr>
  );
}

/** Recent deliveries newest first, with "Retry now" on those that failed or wait to retry. */
export function DeliveriesTable({
  filter,
  canRetry,
  showMonitor = true,
  limit,
}: DeliveriesTableProps) {
  const q = useInfiniteQuery(deliveryListQuery(filter, limit));
  const items = q.data?.pages.flatMap((p) => p.items);
  if (q.isPending) return <LoadingBlock label="Loading deliveries…" rows={3} />;
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!items || items.length === 0)
    return <p className="muted dl-empty">No alerts have been sent here yet.</p>;
  return (
    <div className="dtable-wrap">
      <table className="dtable dltable">
        <caption className="visually-hidden">Deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            {showMonitor && <th scope="col">Monitor</th>}
            <th scope="col">Channel</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Last error</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <Row key={d.id} d={d} canRetry={canRetry} showMonitor={showMonitor} />
          ))}
        </tbody>
      </table>
      {q.hasNextPage && (
        <div className="dtable__more">
          <Button size="sm" busy={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
            Show older
          </Button>
        </div>
      )}
    </div>
  );
}
