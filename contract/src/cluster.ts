import { z } from 'zod';

/** What a member reported with its last heartbeat; null until its first one carries it. */
export const ClusterMemberLoad = z.object({
  /** Monitors its scheduler holds (in its partitions). */
  monitors: z.number().int(),
  /** Checks running now. */
  inFlight: z.number().int(),
  /** Checks started over the last minute. */
  checksPerMinute: z.number(),
  /** Resident memory, bytes. */
  rssBytes: z.number(),
});
export type ClusterMemberLoad = z.infer<typeof ClusterMemberLoad>;

/** One live Pagewatch process of the deployment, with the leases it holds now (ADR 21). */
export const ClusterMemberView = z.object({
  /** Random per start: a restarted process is a new member. */
  id: z.string(),
  /** `hostname:pid`. */
  name: z.string(),
  version: z.string(),
  /** `scheduler`, `notifier`, `web`… */
  roles: z.array(z.string()),
  /** PAGEWATCH_CAPACITY: its weight in the partition shares. */
  capacity: z.number(),
  startedAt: z.iso.datetime(),
  lastHeartbeat: z.iso.datetime(),
  /** The database's clock minus the last heartbeat. */
  heartbeatAgeMs: z.number().int().min(0),
  /** Live partition leases it owns, of `partitions.total`. */
  partitions: z.number().int().min(0),
  /** Names of the live singleton leases it holds (`retention`, `housekeeping`). */
  singletons: z.array(z.string()),
  load: ClusterMemberLoad.nullable(),
});
export type ClusterMemberView = z.infer<typeof ClusterMemberView>;

/** Settings → Cluster: every live member and how the partitions are shared, on the database's clock. */
export const ClusterOverview = z.object({
  /** The member that answered; null while this process has not joined. */
  self: z.string().nullable(),
  /** The database's clock (epoch ms) when the leases were read. */
  databaseNow: z.number().int(),
  partitions: z.object({
    total: z.number().int().min(0),
    /** Partitions with no live lease: nobody checks their monitors until one is taken. */
    unowned: z.number().int().min(0),
  }),
  /** Live members, by id. */
  members: z.array(ClusterMemberView),
});
export type ClusterOverview = z.infer<typeof ClusterOverview>;
