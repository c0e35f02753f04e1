import type { ClusterMemberView, ClusterOverview } from '@pagewatch/contract';
import type { LeaseRow, LiveMember } from '../../db/repositories/cluster.js';
import type { ServiceDeps } from '../deps.js';

/** The lease expiry when the process did not say (ADR 21's default). */
export const DEFAULT_EXPIRE_MS = 8000;

/** Live leases by owner: a lease counts while its expiry is ahead of the database's clock. */
function liveByOwner<K>(rows: readonly LeaseRow<K>[]): Map<string, K[]> {
  const owners = new Map<string, K[]>();
  for (const row of rows) {
    if (row.owner === null || row.expiresAt <= row.now) continue;
    const held = owners.get(row.owner) ?? [];
    held.push(row.key);
    owners.set(row.owner, held);
  }
  return owners;
}

function memberView(
  m: LiveMember,
  now: number,
  partitions: ReadonlyMap<string, number[]>,
  singletons: ReadonlyMap<string, string[]>,
): ClusterMemberView {
  return {
    id: m.id,
    name: m.name,
    version: m.version,
    roles: [...m.roles],
    capacity: m.capacity,
    startedAt: new Date(m.startedAt).toISOString(),
    lastHeartbeat: new Date(m.heartbeatAt).toISOString(),
    // Members, leases and the clock are separate reads: a heartbeat may land in between.
    heartbeatAgeMs: Math.max(0, Math.round(now - m.heartbeatAt)),
    partitions: partitions.get(m.id)?.length ?? 0,
    singletons: [...(singletons.get(m.id) ?? [])].sort(),
    load: m.load,
  };
}

/**
 * Who is in the cluster and what each member holds, read from the lease tables as the database
 * sees them now (not from this process's view, which may lag or be fenced).
 */
export async function clusterOverview(deps: ServiceDeps): Promise<ClusterOverview> {
  const { cluster } = deps.repos;
  const expireMs = deps.cluster?.expireMs ?? DEFAULT_EXPIRE_MS;
  const members = await cluster.liveMembers(expireMs);
  const partitionRows = await cluster.partitions.table();
  const singletonRows = await cluster.singletons.table();
  // The partition table always has its 1,024 rows; the clock falls back only for an empty one.
  const now = partitionRows[0]?.now ?? singletonRows[0]?.now ?? deps.clock.now();
  const partitions = liveByOwner(partitionRows);
  const singletons = liveByOwner(singletonRows);
  let owned = 0;
  for (const keys of partitions.values()) owned += keys.length;
  return {
    self: deps.cluster?.memberId() ?? null,
    databaseNow: now,
    partitions: { total: partitionRows.length, unowned: partitionRows.length - owned },
    members: members.map((m) => memberView(m, now, partitions, singletons)),
  };
}
