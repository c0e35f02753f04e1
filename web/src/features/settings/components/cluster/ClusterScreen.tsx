import type { ClusterOverview } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../../components/ui/Button';
import { EmptyState } from '../../../../components/ui/EmptyState';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { formatCount, plural } from '../../../../lib/format';
import { clusterQuery } from '../../api/cluster';
import { CLUSTER_REFRESH_MS, mixedVersions, unownedTitle } from '../../cluster';
import { ClusterMemberRow } from './ClusterMemberRow';

/** Members, partitions owned, singletons held and versions, as four figures. */
function ClusterSummary({ data }: { data: ClusterOverview }) {
  const { members, partitions } = data;
  const owned = partitions.total - partitions.unowned;
  const held = [...new Set(members.flatMap((m) => m.singletons))].sort();
  const versions = new Set(members.map((m) => m.version));
  const schedulers = members.filter((m) => m.roles.includes('scheduler')).length;
  return (
    <section className="stats cstats" aria-labelledby="cluster-summary">
      <h3 id="cluster-summary" className="visually-hidden">
        Summary
      </h3>
      <div className="stat">
        <p className="stat__label">Members</p>
        <p className="stat__value">{formatCount(members.length)}</p>
        <p className="stat__sub">{plural(schedulers, 'scheduler')}</p>
      </div>
      <div className="stat" data-testid="cluster-partitions">
        <p className="stat__label">Partitions owned</p>
        <p className={`stat__value ${partitions.unowned > 0 ? 'stat__value--warn' : ''}`}>
          {formatCount(owned)}
          <span className="stat__of"> / {formatCount(partitions.total)}</span>
        </p>
        <p className={`stat__sub ${partitions.unowned > 0 ? 'cluster-warn' : ''}`}>
          {partitions.unowned > 0 ? `${formatCount(partitions.unowned)} unowned` : 'All owned'}
        </p>
      </div>
      <div className="stat">
        <p className="stat__label">Singletons held</p>
        <p className="stat__value">{formatCount(held.length)}</p>
        <p className="stat__sub">{held.length > 0 ? held.join(', ') : 'None'}</p>
      </div>
      <div className="stat">
        <p className="stat__label">Versions</p>
        <p className={`stat__value ${versions.size > 1 ? 'stat__value--warn' : ''}`}>
          {formatCount(versions.size)}
        </p>
        <p className="stat__sub">{[...versions].sort().join(', ') || 'None'}</p>
      </div>
    </section>
  );
}

/** Every live process of the deployment and the work each holds, refreshed every few seconds. */
export function ClusterScreen() {
  const { data, error, isPending, refetch, isRefetching } = useQuery(clusterQuery());
  const mixed = data ? mixedVersions(data.members) : null;
  const unowned = data ? unownedTitle(data.partitions.unowned, data.partitions.total) : null;
  return (
    <>
      <div className="settings-head">
        <div>
          <h2 className="settings-title">Cluster</h2>
          <p className="page-sub">
            The Pagewatch processes of this deployment and the leases each holds, on the database’s
            clock. Refreshes every {CLUSTER_REFRESH_MS / 1000} s.
          </p>
        </div>
      </div>
      {isPending && <LoadingBlock label="Loading the cluster…" rows={4} />}
      {error && !data && (
        <ErrorNotice
          error={error}
          action={
            <Button size="sm" busy={isRefetching} onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {data && (
        <>
          <ClusterSummary data={data} />
          {unowned && (
            <Notice tone="warning" className="section-gap" title={unowned}>
              Their monitors wait until a process with the scheduler role takes them: within about
              10 s when a process stops or dies. If this lasts, start a scheduler.
            </Notice>
          )}
          {mixed && (
            <Notice
              tone="warning"
              className="section-gap"
              title="Mixed versions: rolling upgrade in progress"
            >
              {mixed}.
            </Notice>
          )}
          {error && <ErrorNotice error={error} className="section-gap" live={false} />}
          {data.members.length === 0 ? (
            <EmptyState icon="server" title="No live members">
              No process has sent a heartbeat lately; this one joins once it has started.
            </EmptyState>
          ) : (
            <div className="dtable-wrap ctable-wrap">
              <table className="dtable ctable">
                <caption className="visually-hidden">Live cluster members</caption>
                <thead>
                  <tr>
                    <th scope="col">Process</th>
                    <th scope="col">Roles</th>
                    <th scope="col">Version</th>
                    <th scope="col">Capacity</th>
                    <th scope="col">Partitions</th>
                    <th scope="col">Singletons</th>
                    <th scope="col">Heartbeat</th>
                    <th scope="col">Started</th>
                    <th scope="col">Load</th>
                  </tr>
                </thead>
                <tbody>
                  {data.members.map((m) => (
                    <ClusterMemberRow
                      key={m.id}
                      member={m}
                      isSelf={m.id === data.self}
                      totalPartitions={data.partitions.total}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}
