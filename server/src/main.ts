import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config/config.js';
import { WorkerPool } from './cluster/worker-pool.js';
import { composePagewatch } from './compose.js';
import { parentLink, WorkerLinks } from './lib/ipc-bridge.js';
import { createLogger } from './lib/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const builtWeb = path.resolve(here, '../../web/dist');

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, builtWeb);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee docs/configuration.md for every variable.\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel, config.workerIndex);
  // A primary with the scheduler role forks the other scheduler workers of this machine.
  const forks =
    config.workerIndex === null && config.roles.includes('scheduler') ? config.workers - 1 : 0;
  const links = forks > 0 ? new WorkerLinks() : null;
  const parent = config.workerIndex === null ? null : parentLink(process);
  // The primary writes every worker's results (on SQLite the processes also share events over
  // IPC; on PostgreSQL NOTIFY carries them, ADR 16). It checks only while no worker is alive
  // (capacity 0 is a standby), so writing and serving never wait behind its own checks, and it
  // leaves its workers the partitions from the start.
  const primaryStandby = forks > 0;
  // The scheduler members of this machine that each take partitions from the start: the
  // primary counts its workers and itself; a worker (started with the machine's count) its
  // fellow workers, so with three or more each starts with its part instead of the first one
  // up taking everything and handing most of it on a few seconds later.
  const sharers = forks > 0 ? forks + 1 : config.workerIndex !== null ? config.workers - 1 : 1;
  const composed = primaryStandby ? Object.freeze({ ...config, capacity: 0 }) : config;
  const pagewatch = await composePagewatch(composed, logger, {
    machine: links
      ? { role: 'primary', link: links }
      : parent
        ? { role: 'worker', link: parent }
        : null,
    ...(sharers > 1 ? { cluster: { partitions: { expectedSharers: sharers } } } : {}),
  });
  const pool = links
    ? new WorkerPool({
        count: forks,
        script: process.argv[1]!,
        execArgv: process.execArgv,
        env: {
          ...process.env,
          PAGEWATCH_ROLES: 'scheduler',
          PAGEWATCH_WORKERS: String(config.workers),
        },
        links,
        logger,
      })
    : null;

  let stopping = false;
  /** How long a worker whose primary is gone may take to stop before it just exits. */
  const ORPHAN_EXIT_MS = 30_000;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal means "now": abort running checks instead of waiting for them.
      pagewatch.engine?.abort();
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing running checks and writing results');
    // The primary writes its workers' results: they stop (and hand in their last results)
    // before it does.
    const stopped = (pool?.stop() ?? Promise.resolve()).then(() => pagewatch.close());
    stopped.then(
      () => {
        logger.info('stopped cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A worker whose primary is gone (killed) stops too, rather than run on unsupervised; also
  // when the primary died while this worker was still starting (the event has passed then).
  if (parent) {
    const orphaned = () => {
      stop('primary gone');
      // Never run on unsupervised: if the orderly stop hangs, leave anyway.
      setTimeout(() => process.exit(1), ORPHAN_EXIT_MS).unref();
    };
    process.on('disconnect', orphaned);
    if (!process.connected) orphaned();
  }

  if (config.roles.includes('web')) {
    await pagewatch.app.listen({ port: config.port, host: config.host });
    const address = pagewatch.app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = ['0.0.0.0', '::'].includes(config.host)
      ? 'localhost'
      : config.host.includes(':')
        ? `[${config.host}]`
        : config.host;
    const url = `http://${host}:${port}`;
    logger.info(
      {
        database: config.database.kind,
        dataDir: config.dataDir,
        roles: config.roles,
        listen: config.host,
      },
      `Pagewatch is serving ${url}`,
    );
    if (await pagewatch.setupRequired()) {
      logger.warn(
        `No account exists yet: open ${url}/setup to create the owner. From another machine, setup asks for this one-time token: ${pagewatch.setupToken}`,
      );
    }
  }
  await pagewatch.startRoles();
  pool?.start();
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Pagewatch could not start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
