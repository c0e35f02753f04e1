import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp, VERSION } from './app.js';
import {
  ClusterMember,
  PartitionLeases,
  Singletons,
  runWhileHeld,
  type ClusterTimings,
  type PartitionLeaseOptions,
  type SingletonJob,
} from './cluster/index.js';
import type { Config } from './config/config.js';
import { openDatabase, type Database } from './db/database.js';
import { bridgeEvents, type EventBridge } from './db/event-bridge.js';
import { repositories } from './db/repositories/index.js';
import { createEngine, type Engine } from './engine/index.js';
import type { EngineOptions } from './engine/checks/registry.js';
import { cachedOpener } from './engine/checks/stored-secret.js';
import { BrowserPool, ownOriginGuard } from './engine/checks/browser/index.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CredentialRevocations } from './lib/credential-revocations.js';
import { EventHub } from './lib/event-hub.js';
import type { Logger } from './lib/logger.js';
import { createMetrics } from './lib/metrics.js';
import { randomBase62, SecretBox } from './lib/crypto.js';
import { loadSecretKey } from './lib/secret-key.js';
import { AuthCache } from './services/auth/cache.js';
import { subscriberSender } from './notify/subscriber-sender.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import { startRetention, type RetentionOptions } from './jobs/retention.js';
import type { ServiceDeps } from './services/deps.js';
import { MaintenanceIndex } from './services/maintenance/live-index.js';
import { MonitorSummaryCache } from './services/monitors/summary-cache.js';
import { MonitorSeries } from './services/metrics/monitor-series.js';
import { Dispatcher, type DispatcherOptions } from './notify/dispatcher.js';

export interface Pagewatch {
  app: FastifyInstance;
  engine: Engine | null;
  /** The outbox sender, in processes with the notifier role. */
  dispatcher: Dispatcher | null;
  database: Database;
  hub: EventHub;
  /** Events shared with other processes on the same PostgreSQL database; null on SQLite. */
  bridge: EventBridge | null;
  /** This process as a cluster member: its partition share (schedulers) and singletons. */
  cluster: {
    member: ClusterMember;
    partitions: PartitionLeases | null;
    singletons: Singletons;
  };
  /** Printed at start-up while no account exists; needed for setup from another machine. */
  setupToken: string;
  /** True until the owner account exists. */
  setupRequired(): Promise<boolean>;
  /** Starts the roles that run in the background (the scheduler). */
  startRoles(): Promise<void>;
  /** Graceful stop: no new checks, running ones finish, results are written, DB closed. */
  close(): Promise<void>;
}

export interface ComposeOptions {
  clock?: Clock;
  checks?: EngineOptions;
  /** Heartbeat of event streams; tests shorten it. */
  eventPingMs?: number;
  /** Postgres schema to use (tests isolate themselves this way). */
  pgSchema?: string;
  /** History kept and how it is pruned; SPEC §9 defaults. */
  retention?: Partial<RetentionOptions>;
  /** Notifier tuning beyond the config (tests shorten the retry schedule and the poll). */
  notifier?: Partial<DispatcherOptions>;
  /** Lease timings and partition options (tests shorten them; ADR 21). */
  cluster?: { timings?: Partial<ClusterTimings>; partitions?: PartitionLeaseOptions };
}

/** Wires config, storage, engine and HTTP app together; main.ts and tests both start here. */
export async function composePagewatch(
  config: Config,
  logger: Logger,
  options: ComposeOptions = {},
): Promise<Pagewatch> {
  const instanceKey = loadSecretKey(config.secret, config.dataDir);
  const secrets = new SecretBox(instanceKey);
  // Migrations seal secrets that older versions kept in clear (request headers, 013).
  const database = await openDatabase(
    config.database.kind === 'sqlite'
      ? config.database
      : {
          kind: 'postgres',
          url: config.database.url,
          ...(options.pgSchema ? { schema: options.pgSchema } : {}),
        },
    { seal: (plaintext) => secrets.seal(plaintext) },
  );
  const repos = repositories(database);
  const hub = new EventHub();
  const revocations = new CredentialRevocations();
  const metrics = createMetrics();
  // Several processes on one PostgreSQL database hear each other's flips and edits (ADR 16).
  const bridge =
    config.database.kind === 'postgres'
      ? await bridgeEvents({
          url: config.database.url,
          ...(options.pgSchema ? { schema: options.pgSchema } : {}),
          hub,
          revocations,
          database,
          logger,
          counter: metrics.sharedEvents,
        })
      : null;
  const clock = options.clock ?? systemClock;
  const maintenance = new MaintenanceIndex({ repos, hub, clock }, (err) =>
    logger.error({ err }, 'could not reload maintenance windows'),
  );
  const runsChecks = config.roles.includes('scheduler');
  // Every process is a member, so once-per-deployment jobs run once (ADR 21); schedulers also
  // share the partitions, which the scheduler does not act on yet (docs/deployment.md).
  const member = new ClusterMember({
    repo: repos.cluster,
    name: `${os.hostname()}:${process.pid}`,
    version: VERSION,
    capacity: config.capacity,
    roles: config.roles,
    logger,
    observer: metrics.cluster.observer,
    ...(options.cluster?.timings ? { timings: options.cluster.timings } : {}),
  });
  const partitions = runsChecks ? new PartitionLeases(member, options.cluster?.partitions) : null;
  const singletons = new Singletons(member);
  const housekeepingLease = singletons.lease('housekeeping');
  // Pruning history stays where the scheduler runs, as before; now once per deployment.
  const retentionLease = runsChecks ? singletons.lease('retention') : null;
  // On PostgreSQL the others hear of a join, a leave or a release at once, not at their next tick.
  bridge?.onClusterWake(() => member.wake());
  member.on('peers', () => bridge?.wakeCluster());
  Object.assign(metrics.cluster.probes, {
    members: () => member.members().length,
    partitionsOwned: () => partitions?.owned().length ?? 0,
    fenced: () => member.health().state === 'fenced',
    singletons: () => singletons.all().map((l) => ({ name: l.name, held: l.held() })),
  });
  // One Chromium per process, started by the first browser check (none: no browser monitors).
  const browserPool = runsChecks
    ? new BrowserPool({
        executablePath: config.chromiumPath,
        concurrency: config.browserConcurrency,
        logger,
      })
    : null;
  let listening: { host: string; port: number } | null = null;
  const checks: EngineOptions = {
    ...(browserPool
      ? {
          browser: {
            pool: browserPool,
            forbidden: ownOriginGuard({ publicUrl: config.publicUrl, listening: () => listening }),
          },
        }
      : {}),
    ...options.checks,
    openSecret: cachedOpener((sealed) => secrets.open(sealed)),
  };
  const engine = runsChecks
    ? createEngine({
        repos,
        hub,
        clock,
        logger,
        metrics,
        concurrency: config.checkConcurrency,
        maintenance,
        options: checks,
      })
    : null;
  const dispatcher = config.roles.includes('notifier')
    ? new Dispatcher(
        {
          deliveries: repos.deliveries,
          outbox: repos.outbox,
          secrets,
          clock,
          logger,
          metrics,
          subscribers: subscriberSender({
            repos,
            secrets,
            allowPrivateWebhooks: config.allowPrivateSubscriberWebhooks,
          }),
        },
        {
          timeoutMs: config.notify.timeoutMs,
          concurrency: config.notify.concurrency,
          publicUrl: config.publicUrl?.replace(/\/+$/, '') ?? null,
          blockPrivate: config.notify.blockPrivateTargets,
          ...options.notifier,
        },
      )
    : null;
  const setupToken = randomBase62(24);
  // Subscribed before any stream: a revocation from another process first drops what is cached.
  const authCache = new AuthCache();
  revocations.subscribe(({ userId }) => authCache.evictUser(userId));
  const services: ServiceDeps = {
    repos,
    hub,
    clock,
    trigger: engine,
    secrets,
    instanceKey,
    authCache,
    revocations,
    setupToken,
    publicUrl: config.publicUrl ?? null,
    maintenance,
    allowPrivateSubscriberWebhooks: config.allowPrivateSubscriberWebhooks,
    blockPrivateNotifyTargets: config.notify.blockPrivateTargets,
  };
  services.summaries = engine ? new MonitorSummaryCache(services) : null;
  // Per-monitor series from a read model any process keeps; counters where checks run (ADR 16).
  const monitorSeries = config.metrics.perMonitor
    ? new MonitorSeries(services, {
        counters: metrics.monitorCounters,
        limit: config.metrics.monitorLimit,
        onError: (err) => logger.warn({ err }, 'could not refresh the per-monitor metrics'),
      })
    : null;
  if (monitorSeries) metrics.sources.push(() => monitorSeries.exposition());
  const app = await buildApp({
    services,
    trustProxy: config.trustProxy,
    authTiming: config.development ?? false,
    ...(options.eventPingMs ? { eventPingMs: options.eventPingMs } : {}),
    hub,
    logger,
    metrics,
    metricsAccess: config.metrics,
    ping: () => database.ping(),
    cluster: () => {
      const { state } = member.health();
      return state === 'idle' ? null : { state };
    },
    webDist: config.webDist,
  });
  app.server.on('listening', () => {
    const address = app.server.address();
    if (address && typeof address === 'object') {
      listening = { host: address.address, port: address.port };
    }
  });

  let closing: Promise<void> | null = null;
  let housekeeping: SingletonJob | null = null;
  let retention: SingletonJob | null = null;
  return {
    app,
    engine,
    dispatcher,
    database,
    hub,
    bridge,
    cluster: { member, partitions, singletons },
    setupToken,
    setupRequired: async () => (await repos.users.count()) === 0,
    startRoles: async () => {
      // The first tick registers and takes the free leases: a lone process holds them at once.
      await member.start();
      housekeeping = runWhileHeld(
        housekeepingLease,
        () => ({ stop: startHousekeeping(repos, clock, logger) }),
        logger,
      );
      if (retentionLease) {
        retention = runWhileHeld(
          retentionLease,
          () => startRetention(repos, clock, logger, options.retention),
          logger,
        );
      }
      // Windows are read before the first check, so no check runs unaware of one.
      if (engine) await maintenance.start();
      // The dashboard's read model is filled before the first check (a second at 100,000
      // monitors), so neither a check nor the first sign-in waits for it.
      await services.summaries?.warm();
      await engine?.start();
      dispatcher?.start();
    },
    close: () =>
      (closing ??= (async () => {
        await housekeeping?.stop();
        monitorSeries?.close();
        maintenance.stop();
        await retention?.stop();
        await app.close();
        await engine?.stop();
        // After the engine: the last results' alerts are queued, and sent if there is time.
        await dispatcher?.stop();
        await browserPool?.close();
        // Leases go back at once, so another process takes over without waiting for expiry.
        await member.stop();
        await bridge?.close();
        await database.close();
      })()),
  };
}
