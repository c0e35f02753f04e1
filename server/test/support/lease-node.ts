/**
 * One cluster member as its own process, for the real-process tests and the bench:
 * `tsx --conditions=@pagewatch/source server/test/support/lease-node.ts` with
 * LEASE_URL (postgres:// or a SQLite file), LEASE_SCHEMA, LEASE_NAME, LEASE_RENEW_MS,
 * LEASE_EXPIRE_MS, LEASE_SKEW_MS, LEASE_SINGLETONS (comma-separated; `retention` runs the real
 * retention job every LEASE_JOB_EVERY_MS while held). Prints JSON lines: ready, acquired,
 * lost, draining, fenced, unfenced, owned (the full set after every change), singleton.
 */
import pino from 'pino';
import {
  ClusterMember,
  PartitionLeases,
  Singletons,
  runWhileHeld,
} from '../../src/cluster/index.js';
import { openDatabase } from '../../src/db/database.js';
import { repositories } from '../../src/db/repositories/index.js';
import { startRetention } from '../../src/jobs/retention.js';
import { systemClock } from '../../src/lib/clock.js';

const env = process.env;
const url = env.LEASE_URL ?? '';
const out = (line: Record<string, unknown>) =>
  process.stdout.write(`${JSON.stringify({ t: Date.now(), ...line })}\n`);
const logger = pino({ level: env.LEASE_LOG_LEVEL ?? 'info' }, pino.destination(1));

const database = await openDatabase(
  url.startsWith('postgres')
    ? { kind: 'postgres', url, ...(env.LEASE_SCHEMA ? { schema: env.LEASE_SCHEMA } : {}) }
    : { kind: 'sqlite', file: url },
);
const repos = repositories(database);
const member = new ClusterMember({
  repo: repos.cluster,
  name: env.LEASE_NAME ?? `lease-node:${process.pid}`,
  version: 'test',
  capacity: Number(env.LEASE_CAPACITY ?? 1),
  roles: ['scheduler'],
  logger,
  timings: {
    renewMs: Number(env.LEASE_RENEW_MS ?? 2000),
    expireMs: Number(env.LEASE_EXPIRE_MS ?? 8000),
    skewMs: Number(env.LEASE_SKEW_MS ?? 1000),
  },
});
const partitions = new PartitionLeases(member, { settleMs: Number(env.LEASE_SETTLE_MS ?? 300) });
const singletons = new Singletons(member);
const printOwned = () => out({ event: 'owned', id: member.id, owned: partitions.owned() });
partitions.on('acquired', (grants) => {
  out({ event: 'acquired', id: member.id, grants: grants.map((g) => [g.partition, g.epoch]) });
  printOwned();
});
partitions.on('lost', (lost, reason) => {
  out({ event: 'lost', id: member.id, partitions: lost, reason });
  printOwned();
});
partitions.on('draining', (p) => out({ event: 'draining', id: member.id, partitions: p }));
member.on('fenced', (reason) => out({ event: 'fenced', id: member.id, reason }));
member.on('unfenced', () => out({ event: 'unfenced', id: member.id }));

const jobs = (env.LEASE_SINGLETONS ?? '')
  .split(',')
  .filter(Boolean)
  .map((name) => {
    const lease = singletons.lease(name);
    lease.on('acquired', (epoch) =>
      out({ event: 'singleton', id: member.id, name, held: true, epoch }),
    );
    lease.on('lost', (reason) =>
      out({ event: 'singleton', id: member.id, name, held: false, reason }),
    );
    const everyMs = Number(env.LEASE_JOB_EVERY_MS ?? 500);
    return runWhileHeld(
      lease,
      () =>
        name === 'retention'
          ? startRetention(repos, systemClock, logger.child({ member: member.id }), {
              everyMs,
              firstAfterMs: 0,
            })
          : { stop: () => {} },
      logger,
    );
  });

await member.start();
out({ event: 'ready', id: member.id, pid: process.pid });
printOwned();
const keepAlive = setInterval(() => {}, 1 << 30);

process.on('SIGTERM', () => {
  void (async () => {
    for (const job of jobs) await job.stop();
    await member.stop();
    await database.close();
    clearInterval(keepAlive);
    out({ event: 'stopped', id: member.id });
    process.exit(0);
  })();
});
