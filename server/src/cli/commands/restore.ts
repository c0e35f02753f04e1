import path from 'node:path';
import { ConfigError, loadConfig } from '../../config/config.js';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';

/**
 * `pagewatch restore <file>`: the one server-side command (ADR 29). It writes the database that
 * PAGEWATCH_DATABASE_URL or PAGEWATCH_DATA_DIR names, with Pagewatch stopped, using the same
 * environment as the server (PAGEWATCH_SECRET or data/secret.key).
 */
export const registerRestore: RegisterCommand = (program, contextOf) => {
  program
    .command('restore')
    .argument('<file>', 'a file written by `pagewatch backup` or a scheduled backup')
    .description(
      'restore a backup into an empty instance, SQLite or PostgreSQL (run where the server runs, with it stopped)',
    )
    .action(async (file: string, _opts, cmd) => {
      const ctx = contextOf(cmd);
      let config;
      try {
        config = loadConfig(ctx.env);
      } catch (err) {
        if (err instanceof ConfigError) throw new CliError(err.message);
        throw err;
      }
      const where =
        config.database.kind === 'sqlite'
          ? config.database.file
          : `PostgreSQL${config.database.schema ? ` (schema ${config.database.schema})` : ''}`;
      // Loaded here: the database drivers cost start-up time every other command would pay.
      const { RestoreRefused, restoreBackup } = await import('../../services/backup/restore.js');
      try {
        const report = await restoreBackup(config, path.resolve(ctx.cwd, file));
        const { header } = report;
        ctx.out(
          `Restored ${report.rows} rows in ${report.tables.size} tables into ${where}, from a ${header.engine} backup of ${header.createdAt} (schema ${header.migration}, now ${report.migration}).\n` +
            'Start Pagewatch: people sign in with their passwords and API keys from the backup.\n',
        );
      } catch (err) {
        if (err instanceof RestoreRefused)
          throw new CliError(`Nothing was restored. ${err.message}`, 1);
        // Everything was written in one transaction: a failure inside it left nothing behind.
        throw new CliError(`Nothing was restored: ${(err as Error).message}`, 2);
      }
    });
};
