import { RdapClient } from './engine/checks/domain/client.js';
import { bootstrapFileFor, loadBootstrapFile } from './engine/checks/domain/bootstrap.js';
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
import { transactor } from './db/unit-of-work.js';
import { createEngine, type Engine } from './engine/index.js';
import { createLocationIngest, type LocationIngest } from './engine/location-ingest.js';
import { checkTypes, type EngineOptions } from './engine/checks/registry.js';
import type { Ownership } from './engine/ownership.js';
import { cachedOpener } from './engine/checks/stored-secret.js';
import { BrowserPool, ownOriginGuard } from './engine/checks/browser/index.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CredentialRevocations } from './lib/credential-revocations.js';
import { EventHub } from './lib/event-hub.js';
import { bridgeOverIpc, type IpcLink, type WorkerLinks } from './lib/ipc-bridge.js';
import { collectFromWorkers, reportToPrimary } from './cluster/worker-metrics.js';
import { TurnQueue, turnsFromPrimary, type WriteTurns } from './db/write-turns.js';
import type { Logger } from './lib/logger.js';
import { createMetrics } from './lib/metrics.js';
import { randomBase62, SecretBox } from './lib/crypto.js';
import { loadSecretKey } from './lib/secret-key.js';
import { AuthCache } from './services/auth/cache.js';
import { subscriberSender } from './notify/subscriber-sender.js';
import { contactSender } from './notify/contact-sender.js';
import { channelHealth } from './notify/channel-health.js';
import { channelHealthRepository } from './db/repositories/channel-health.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import { startOfflineLocations } from './jobs/offline-locations.js';
import { startReportMonths, type ReportMonthsTimings } from './jobs/report-months.js';
import { startReportSchedules } from './jobs/report-schedules.js';
import { startSloJob, type SloJobOptions } from './slos/job.js';
import { SloCounterStore } from './slos/store.js';
import { startScheduledBackups } from './jobs/backups.js';
import { registerBackupMetrics } from './services/metrics/backup-metrics.js';
import { registerConfigFileMetrics } from './services/config-file/status.js';
import { startConfigFileWatch } from './services/config-file/watch.js';
import { retentionPolicyOf, startRetention, type RetentionOptions } from './jobs/retention.js';
import type { ServiceDeps } from './services/deps.js';
import { MaintenanceIndex } from './services/maintenance/live-index.js';
import { MonitorSummaryCache } from './services/monitors/summary-cache.js';
import { checkMonitorNow } from './services/monitors/check-now.js';
import { GroupTriggers } from './engine/group-triggers.js';
import { referencingTypes } from './domain/monitor-types.js';
import type { InsertedResult } from './db/repositories/results.js';
import { MonitorSeries } from './services/metrics/monitor-series.js';
import { SettingsStore } from './services/settings/store.js';
import { Dispatcher, type DispatcherOptions } from './notify/dispatcher.js';
import { startEscalationJob, type EscalationJobOptions } from './escalation/job.js';
import { startAlertGroupJob, type AlertGroupJobOptions } from './alert-groups/job.js';
import { ConnectivityGuard, parseCanaries } from './engine/connectivity-guard.js';

export interface Pagewatch {
  app: FastifyInstance;
  engine: Engine | null;
  /** Locations' results and the quorum (ADR 58): probes' batches go in here. */
  locations: LocationIngest;
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
  /**
   * The other processes of this machine (PAGEWATCH_WORKERS, ADR 25): the primary forked
   * them and exports their metrics; on SQLite it also writes their results and they share
   * events over this link (on PostgreSQL NOTIFY carries events and each writes its own).
   */
  machine?: { role: 'primary'; link: WorkerLinks } | { role: 'worker'; link: IpcLink } | null;
  /** History kept and how it is pruned; SPEC §9 defaults. */
  retention?: Partial<RetentionOptions>;
  /** Notifier tuning beyond the config (tests shorten the retry schedule and the poll). */
  notifier?: Partial<DispatcherOptions>;
  /** The escalation timer (ADR 39): tests shorten the poll or fast-forward its due clock. */
  escalation?: Partial<EscalationJobOptions>;
  /** The grouping timer (ADR 42): tests shorten its poll. */
  alertGroups?: Partial<AlertGroupJobOptions>;
  /** The SLO burn-rate evaluator (ADR 53): tests shorten its tick. */
  slos?: Partial<SloJobOptions>;
  /** Closed months kept ready for reports (ADR 75): tests shorten its first pass. */
  reportMonths?: Partial<ReportMonthsTimings>;
  /**
   * Lease timings and partition options (tests shorten them; ADR 21). `overlap` makes the
   * scheduler check every monitor whatever it owns: only the tests of the result write's
   * (monitor, round) guard want that, to stage two processes holding the same round.
   */
  cluster?: {
    timings?: Partial<ClusterTimings>;
    partitions?: PartitionLeaseOptions;
    overlap?: boolean;
  };
}

/** SQLite's write lock in turns: the primary gives them out, its workers ask (ADR 25). */
function writeTurnsOf(machine: ComposeOptions['machine'], config: Config): WriteTurns | null {
  if (!machine || config.database.kind !== 'sqlite') return null;
  if (machine.role === 'worker') return turnsFromPrimary(machine.link);
  const turns = new TurnQueue();
  turns.serve(machine.link);
  return turns;
}

/** Wires config, storage, engine and HTTP app together; main.ts and tests both start here. */
export async function composePagewatch(
  config: Config,
  logger: Logger,
  options: ComposeOptions = {},
): Promise<Pagewatch> {
  const instanceKey = loadSecretKey(config.secret, config.dataDir);
  const pgSchema =
    options.pgSchema ?? (config.database.kind === 'postgres' ? config.database.schema : undefined);
  const secrets = new SecretBox(instanceKey);
  // Migrations seal secrets that older versions kept in clear (request headers, 013).
  const database = await openDatabase(
    config.database.kind === 'sqlite'
      ? config.database
      : {
          kind: 'postgres',
          url: config.database.url,
          ...(pgSchema ? { schema: pgSchema } : {}),
        },
    { seal: (plaintext) => secrets.seal(plaintext), turns: writeTurnsOf(options.machine, config) },
  );
  const repos = repositories(database);
  const hub = new EventHub();
  const revocations = new CredentialRevocations();
  const metrics = createMetrics();
  const machine = options.machine ?? null;
  // SQLite has one writer: the machine's processes share events and results over IPC.
  const sqliteMachine = config.database.kind === 'sqlite' ? machine : null;
  if (machine?.role === 'primary') collectFromWorkers(machine.link, metrics);
  const stopReporting = machine?.role === 'worker' ? reportToPrimary(machine.link, metrics) : null;
  // Several processes on one PostgreSQL database hear each other's flips and edits (ADR 16).
  const bridge: EventBridge | null =
    config.database.kind === 'postgres'
      ? await bridgeEvents({
          url: config.database.url,
          ...(pgSchema ? { schema: pgSchema } : {}),
          hub,
          revocations,
          database,
          logger,
          counter: metrics.sharedEvents,
          // Results feed the web's read model, streams and status pages; nothing else needs them.
          results: config.roles.includes('web'),
        })
      : sqliteMachine
        ? bridgeOverIpc(sqliteMachine.link, hub, logger, {
            keep: sqliteMachine.role === 'primary' ? ['result'] : [],
          })
        : null;
  const clock = options.clock ?? systemClock;
  const maintenance = new MaintenanceIndex({ repos, hub, clock }, (err) =>
    logger.error({ err }, 'could not reload maintenance windows'),
  );
  const runsChecks = config.roles.includes('scheduler');
  // Every process is a member, so once-per-deployment jobs run once (ADR 21); schedulers also
  // share the partitions and check only the monitors of theirs (ADR 24).
  let engine: Engine | null = null;
  const member = new ClusterMember({
    repo: repos.cluster,
    name: `${os.hostname()}:${process.pid}`,
    version: VERSION,
    capacity: config.capacity,
    roles: config.roles,
    logger,
    observer: metrics.cluster.observer,
    timings: { ...config.lease, ...options.cluster?.timings },
    load: () => ({
      ...(engine?.load() ?? { monitors: 0, inFlight: 0, checksPerMinute: 0 }),
      rssBytes: process.memoryUsage.rss(),
    }),
  });
  const partitions = runsChecks
    ? new PartitionLeases(member, {
        // A partition leaves only once its checks in flight ended and their results are written.
        drain: (ps) => engine?.drain(ps) ?? Promise.resolve(),
        ...options.cluster?.partitions,
      })
    : null;
  const singletons = new Singletons(member);
  const housekeepingLease = singletons.lease('housekeeping');
  // A location whose probes all went silent raises one incident, once per deployment (ADR 56).
  const offlineLocationsLease = singletons.lease('offline-locations');
  // Monthly report emails: each month once per deployment, caught up on takeover (ADR 65).
  const reportSchedulesLease = singletons.lease('report-schedules');
  // Closed months' latency sketches stored for reports, once per deployment (ADR 75).
  const reportMonthsLease = singletons.lease('report-months');
  // Pruning history stays where the scheduler runs, as before; now once per deployment.
  const retentionLease = runsChecks ? singletons.lease('retention') : null;
  // Scheduled backups: once per deployment, by whichever process holds the lease.
  const backupsLease = singletons.lease('backups');
  // PAGEWATCH_CONFIG: the files are applied by one process of the deployment (ADR 28).
  const configFileLease = config.configFile ? singletons.lease('config-file') : null;
  // Escalation steps fire once per deployment, where alerts are sent (ADR 39).
  const escalationsLease = config.roles.includes('notifier')
    ? singletons.lease('escalations')
    : null;
  // Grouping windows end once per deployment, where alerts are sent (ADR 42).
  const alertGroupsLease = config.roles.includes('notifier')
    ? singletons.lease('alert-groups')
    : null;
  // Burn rates are judged once per deployment, where alerts are sent (ADR 53).
  const slosLease = config.roles.includes('notifier') ? singletons.lease('slos') : null;
  const sloCounters = new SloCounterStore(() => clock.now());
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
    // Domain expiry: the refreshed bootstrap file in the data directory, else the shipped one.
    rdap: new RdapClient({
      bootstrap: () => loadBootstrapFile(bootstrapFileFor(config.dataDir)),
    }),
    // Maintenance is an overlay, not a stored status: a member a window covers is left out.
    groupMembers: async (ids) =>
      (await repos.groupMembers.statuses(ids)).map((m) =>
        maintenance.inMaintenance(m.id, clock.now()) ? { ...m, status: 'maintenance' } : m,
      ),
    ...options.checks,
    openSecret: cachedOpener((sealed) => secrets.open(sealed)),
  };
  // A member's flip re-evaluates its groups at once, through check-now (addendum to ADR 47).
  const groupTriggers = new GroupTriggers({
    referencing: (ids) => repos.groupMembers.referencing(ids, referencingTypes),
    runNow: (id) => checkMonitorNow(services, id),
    logger,
  });
  const onWritten = (written: InsertedResult[]) => groupTriggers.noteWritten(written);
  // Locations' results and the quorum (ADR 58): probes' batches and multi-location monitors.
  const locationIngest = createLocationIngest({
    repos,
    hub,
    clock,
    logger,
    maintenance,
    onWritten,
  });
  engine = runsChecks
    ? createEngine({
        repos,
        hub,
        clock,
        logger,
        metrics,
        concurrency: config.checkConcurrency,
        maintenance,
        locations: locationIngest,
        onWritten,
        options: checks,
        ...(config.canaryTargets
          ? { connectivity: new ConnectivityGuard(parseCanaries(config.canaryTargets)) }
          : {}),
        ...(partitions && !options.cluster?.overlap ? { ownership: ownershipOf(partitions) } : {}),
        // On both engines the primary writes its workers' results (ADR 25).
        ...(machine
          ? {
              results:
                machine.role === 'primary' ? { takeFrom: machine.link } : { handTo: machine.link },
            }
          : {}),
      })
    : null;
  bridge?.onRequestsWake(() => engine?.wakeRequests());
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
          contacts: contactSender({
            contactMethods: repos.contactMethods,
            secrets,
            systemMail: async () => {
              const { systemChannelId } = await settings.get('mail');
              return systemChannelId === null ? null : repos.deliveries.channel(systemChannelId);
            },
          }),
          health: channelHealth({
            health: channelHealthRepository(database.db),
            clock,
            outbox: repos.outbox,
            logger,
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
  const settings = new SettingsStore(repos);
  // Subscribed before any stream: a revocation from another process first drops what is cached.
  const authCache = new AuthCache();
  revocations.subscribe(({ userId }) => authCache.evictUser(userId));
  const services: ServiceDeps = {
    repos,
    sloCounters,
    hub,
    clock,
    trigger: engine,
    cluster: { memberId: () => member.id, expireMs: member.timings.expireMs },
    handedOver: () => {
      metrics.cluster.requests.inc({ direction: 'sent' });
      bridge?.wakeRequests();
      engine?.wakeRequests();
    },
    secrets,
    instanceKey,
    authCache,
    revocations,
    setupToken,
    publicUrl: config.publicUrl ?? null,
    dataDir: config.dataDir,
    maintenance,
    allowPrivateSubscriberWebhooks: config.allowPrivateSubscriberWebhooks,
    blockPrivateNotifyTargets: config.notify.blockPrivateTargets,
    settings,
    transact: transactor(database, repos.outbox),
    // The form's "Test" uses the engine's own check types and options, whatever this process's roles.
    trialCheck: (monitor, signal) =>
      checkTypes[monitor.type].run(monitor, { signal, now: clock.now() }, checks),
    recordLocationResults: (locationId, items, opts) =>
      locationIngest.record(locationId, items, opts),
  };
  const serves = config.roles.includes('web');
  services.summaries = engine && serves ? new MonitorSummaryCache(services) : null;
  // Per-monitor series from a read model any process keeps; counters where checks run (ADR 16).
  const monitorSeries =
    config.metrics.perMonitor && serves
      ? new MonitorSeries(services, {
          counters: metrics.monitorCounters,
          limit: config.metrics.monitorLimit,
          onError: (err) => logger.warn({ err }, 'could not refresh the per-monitor metrics'),
        })
      : null;
  if (monitorSeries) metrics.sources.push(() => monitorSeries.exposition());
  registerBackupMetrics(metrics.registry, services);
  registerConfigFileMetrics(metrics.registry, repos);
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
  let offlineLocations: SingletonJob | null = null;
  let reportSchedules: SingletonJob | null = null;
  let reportMonths: SingletonJob | null = null;
  let retention: SingletonJob | null = null;
  let backups: SingletonJob | null = null;
  let configFile: SingletonJob | null = null;
  let escalations: SingletonJob | null = null;
  let alertGroups: SingletonJob | null = null;
  let slos: SingletonJob | null = null;
  return {
    app,
    engine,
    locations: locationIngest,
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
        () => startHousekeeping(repos, clock, logger),
        logger,
      );
      if (retentionLease) {
        retention = runWhileHeld(
          retentionLease,
          () =>
            startRetention(repos, clock, logger, {
              // Each pass reads the stored settings, unless a test fixes the policy (ADR 27).
              ...(options.retention?.policy
                ? {}
                : { policySource: async () => retentionPolicyOf(await settings.get('retention')) }),
              ...options.retention,
            }),
          logger,
        );
      }
      backups = runWhileHeld(backupsLease, () => startScheduledBackups(services, logger), logger);
      offlineLocations = runWhileHeld(
        offlineLocationsLease,
        () => startOfflineLocations(services, logger),
        logger,
      );
      reportSchedules = runWhileHeld(
        reportSchedulesLease,
        () => startReportSchedules(services, logger),
        logger,
      );
      reportMonths = runWhileHeld(
        reportMonthsLease,
        () => startReportMonths(services, logger, options.reportMonths),
        logger,
      );
      if (escalationsLease) {
        escalations = runWhileHeld(
          escalationsLease,
          () => startEscalationJob(repos, clock, logger, { pollMs: 1000, ...options.escalation }),
          logger,
        );
      }
      if (alertGroupsLease) {
        alertGroups = runWhileHeld(
          alertGroupsLease,
          () => startAlertGroupJob(repos, clock, logger, { pollMs: 1000, ...options.alertGroups }),
          logger,
        );
      }
      if (slosLease) {
        slos = runWhileHeld(
          slosLease,
          () => startSloJob(services, sloCounters, logger, { tickMs: 60_000, ...options.slos }),
          logger,
        );
      }
      const files = config.configFile;
      if (configFileLease && files) {
        configFile = runWhileHeld(
          configFileLease,
          () =>
            startConfigFileWatch(
              services,
              { path: files.path, prune: files.prune, pollMs: files.pollMs, env: process.env },
              logger,
            ),
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
        await offlineLocations?.stop();
        await reportSchedules?.stop();
        await reportMonths?.stop();
        monitorSeries?.close();
        stopReporting?.();
        maintenance.stop();
        await retention?.stop();
        await backups?.stop();
        await configFile?.stop();
        await escalations?.stop();
        await alertGroups?.stop();
        await slos?.stop();
        await app.close();
        await engine?.stop();
        await groupTriggers.stop();
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

/** The engine's view of the partition leases (ADR 24). */
function ownershipOf(leases: PartitionLeases): Ownership {
  return {
    owns: (p) => leases.owns(p),
    owned: () => leases.owned(),
    onAcquired: (listener) =>
      leases.on('acquired', (grants) => listener(grants.map((g) => g.partition))),
    onLost: (listener) => leases.on('lost', (partitions) => listener(partitions)),
  };
}
