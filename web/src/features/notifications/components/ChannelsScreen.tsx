import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice } from '../../../components/ui/Notice';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { channelListQuery, isFullChannel } from '../api/queries';
import { CoverageSummary } from './CoverageSummary';
import { KindBadge } from './KindBadge';
import { NotificationTabs } from './NotificationTabs';

/** Every channel with its kind, use and monitors; "Add channel" leads to the form. */
export function ChannelsScreen() {
  const { data, error, isPending, isRefetching, refetch } = useQuery(channelListQuery());
  const channels = data?.items.filter(isFullChannel);
  return (
    <>
      <title>Notifications · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Notifications</h1>
          <p className="page-sub">Where alerts go when a monitor goes down, recovers or flaps.</p>
        </div>
        <ButtonLink to="/notifications/new" variant="primary" icon="plus">
          Add channel
        </ButtonLink>
      </div>
      <NotificationTabs />
      <CoverageSummary />
      {isPending && <LoadingBlock label="Loading channels…" rows={3} />}
      {error && (
        <ErrorNotice
          error={error}
          action={
            <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {channels && channels.length === 0 && (
        <EmptyState icon="alertCircle" title="No notification channels yet">
          Add a webhook, chat, push or email channel; monitors then alert through the channels you
          tick on them.
        </EmptyState>
      )}
      {channels && channels.length > 0 && (
        <div className="dtable-wrap">
          <table className="dtable chtable">
            <caption className="visually-hidden">Notification channels</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Default</th>
                <th scope="col">State</th>
                <th scope="col">Monitors</th>
              </tr>
            </thead>
            <tbody>
              {channels.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/notifications/${c.id}`} className="chtable__name">
                      {c.name}
                    </Link>
                  </td>
                  <td data-label="Kind">
                    <KindBadge kind={c.kind} />
                  </td>
                  <td data-label="Default">
                    {c.isDefault ? (
                      <span className="npill npill--on">
                        <Icon name="check" size={12} /> New monitors
                      </span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td data-label="State">
                    {c.enabled ? (
                      <span className="npill npill--on">Enabled</span>
                    ) : (
                      <span className="npill">Disabled</span>
                    )}
                    {c.health.failing && (
                      <div className="chtable__health">
                        <span className="npill npill--failing">
                          <Icon name="alertCircle" size={12} /> Failing
                        </span>
                        <span className="chtable__error">
                          {c.health.consecutiveFailures} failed in a row
                          {c.health.lastError ? `: ${c.health.lastError}` : ''}
                        </span>
                      </div>
                    )}
                  </td>
                  <td data-label="Monitors">{c.monitorCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
