import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config/config.js';
import { composePagewatch } from './compose.js';
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
  const logger = createLogger(config.logLevel);
  const pagewatch = await composePagewatch(config, logger);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal means "now": abort running checks instead of waiting for them.
      pagewatch.engine?.abort();
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing running checks and writing results');
    pagewatch.close().then(
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
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Pagewatch could not start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
