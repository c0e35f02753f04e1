export {
  ClusterMember,
  defaultClusterTimings,
  type ClusterMemberOptions,
  type ClusterObserver,
  type ClusterTimings,
  type MemberState,
} from './member.js';
export {
  PartitionLeases,
  type Drain,
  type LossReason,
  type PartitionGrant,
  type PartitionLeaseOptions,
} from './partition-leases.js';
export { SingletonLease, Singletons } from './singletons.js';
export { runWhileHeld, type SingletonJob, type Stoppable } from './singleton-job.js';
