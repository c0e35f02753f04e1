import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { ClusterMember, PartitionLeases, Singletons } from '../../src/cluster/index.js';
import type { ClusterTimings } from '../../src/cluster/member.js';
import type { PartitionLeaseOptions } from '../../src/cluster/partition-leases.js';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/database.js';
import { clusterRepository, type ClusterRepository } from '../../src/db/repositories/cluster.js';

/** Short lease timings for tests: renew 200 ms, expire 1.6 s, fenced after 1.1 s of silence. */
export const fastTimings: ClusterTimings = { renewMs: 200, expireMs: 1600, skewMs: 300 };

export interface TestMember {
  member: ClusterMember;
  partitions: PartitionLeases;
  singletons: Singletons;
  database: Database;
  /** Makes every statement fail from now on, as if the database were out of reach. */
  cut(): void;
  /** Makes the repository's `name` call wait this long first (a statement queued for the lock). */
  slow(name: string, ms: number): void;
  close(): Promise<void>;
}

/**
 * The repository with a switch that makes every call fail (a member that stops renewing), and
 * delays before chosen calls (statements that wait for the write lock).
 */
function breakable(repo: ClusterRepository): {
  repo: ClusterRepository;
  cut(): void;
  slow(name: string, ms: number): void;
} {
  let cut = false;
  const delays = new Map<string, number>();
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof value === 'function') {
          const call = (...args: unknown[]) =>
            cut
              ? Promise.reject(new Error('connection cut by the test'))
              : (value as (...a: unknown[]) => unknown).apply(t, args);
          const delay = typeof key === 'string' ? delays.get(key) : undefined;
          return delay ? (...args: unknown[]) => sleep(delay).then(() => call(...args)) : call;
        }
        return value && typeof value === 'object' ? wrap(value as object) : value;
      },
    });
  return {
    repo: wrap(repo),
    cut: () => (cut = true),
    slow: (name, ms) => delays.set(name, ms),
  };
}

/** A member with its own connection to the shared database, as another process would have. */
export async function startMember(
  target: DatabaseTarget,
  options: {
    name: string;
    capacity?: number;
    timings?: ClusterTimings;
    leases?: PartitionLeaseOptions;
    singletons?: string[];
    start?: boolean;
  },
): Promise<TestMember> {
  const database = await openDatabase(target);
  const breaker = breakable(clusterRepository(database.db, database.engine));
  const repo = breaker.repo;
  const member = new ClusterMember({
    repo,
    name: options.name,
    version: 'test',
    capacity: options.capacity ?? 1,
    roles: ['scheduler'],
    logger: pino({ level: 'silent' }),
    timings: options.timings ?? fastTimings,
  });
  const partitions = new PartitionLeases(member, { settleMs: 300, ...options.leases });
  const singletons = new Singletons(member);
  for (const name of options.singletons ?? []) singletons.lease(name);
  if (options.start !== false) await member.start();
  return {
    member,
    partitions,
    singletons,
    database,
    cut: () => breaker.cut(),
    slow: (name, ms) => breaker.slow(name, ms),
    close: async () => {
      await member.stop();
      await database.close();
    },
  };
}
