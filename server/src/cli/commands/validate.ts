import { loadChecked } from '../config-files.js';
import type { RegisterCommand } from './index.js';

/** `pagewatch validate <file|folder>…`: offline, every error as file:line:column: path: message. */
export const registerValidate: RegisterCommand = (program, contextOf) => {
  program
    .command('validate')
    .description('check configuration files offline (YAML or JSON; folders merge)')
    .argument('<paths...>', 'files or folders of *.yaml, *.yml and *.json')
    .action((paths: string[], _opts, cmd) => {
      const ctx = contextOf(cmd);
      const document = loadChecked(ctx, paths);
      ctx.out(
        `Valid: ${document.monitors.length} monitor(s), ${document.channels.length} channel(s), ` +
          `${document.statusPages.length} status page(s), ${document.maintenance.length} maintenance window(s).\n`,
      );
    });
};
