import { ConfigApplyReport, configKinds } from '@pagewatch/contract';
import { ApiClient } from '../api-client.js';
import { loadChecked } from '../config-files.js';
import { connectionOf } from '../context.js';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';
import { referencedEnv, tokenOfPlanFile } from './plan.js';

interface ApplyOptions {
  prune?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  createOnly?: boolean;
  planToken?: string;
  plan?: string;
}

const label = {
  channels: 'channels',
  monitors: 'monitors',
  statusPages: 'status pages',
  maintenance: 'maintenance windows',
  slos: 'SLOs',
} as const;

/** One line per kind and change that happened, keys listed. */
export function describeReport(report: ConfigApplyReport): string {
  const lines: string[] = [];
  for (const kind of configKinds) {
    const r = report[kind];
    for (const change of ['created', 'updated', 'detached', 'deleted', 'skipped'] as const) {
      if (r[change].length > 0)
        lines.push(`  ${label[kind]} ${change} (${r[change].length}): ${r[change].join(', ')}`);
    }
    if (r.unchanged.length > 0) lines.push(`  ${label[kind]} unchanged: ${r.unchanged.length}`);
  }
  return lines.length > 0 ? lines.join('\n') : '  nothing to do';
}

const deletions = (report: ConfigApplyReport): number =>
  configKinds.reduce((n, kind) => n + report[kind].deleted.length, 0);

/** `pagewatch apply <file|folder>… [--prune --yes] [--dry-run]`: the files become the configuration. */
export const registerApply: RegisterCommand = (program, contextOf) => {
  program
    .command('apply')
    .description('apply configuration files to the server in one transaction (admin or owner key)')
    .argument('<paths...>', 'files or folders of *.yaml, *.yml and *.json')
    .option('--prune', 'delete managed resources the files no longer have (default: detach them)')
    .option('--yes', 'confirm the deletions --prune makes')
    .option('--dry-run', 'show what would change and write nothing')
    .option('--create-only', 'create new keys only; leave every known key as it is')
    .option('--plan-token <token>', 'refuse if the server changed since the plan with this token')
    .option('--plan <file>', 'refuse if the server changed since the plan written to <file>')
    .action(async (paths: string[], opts: ApplyOptions, cmd) => {
      const ctx = contextOf(cmd);
      if (opts.plan !== undefined && opts.planToken !== undefined)
        throw new CliError('Give --plan or --plan-token, not both.', 2);
      const planToken =
        opts.plan !== undefined ? tokenOfPlanFile(ctx.cwd, opts.plan) : opts.planToken;
      const document = loadChecked(ctx, paths);
      const api = new ApiClient(connectionOf(ctx));
      // Secrets travel as the values of the variables the files name, never from the files.
      const env = referencedEnv(ctx, document);
      const send = (dryRun: boolean) =>
        api.call('/config/apply', ConfigApplyReport, {
          method: 'POST',
          body: {
            document,
            env,
            mode: opts.createOnly ? 'create-only' : 'upsert',
            prune: opts.prune ?? false,
            dryRun,
            ...(planToken === undefined ? {} : { planToken }),
          },
          timeoutMs: 300_000,
        });
      if (opts.prune && !opts.yes && !opts.dryRun) {
        const preview = await send(true);
        const n = deletions(preview);
        if (n > 0) {
          ctx.out(`Would apply:\n${describeReport(preview)}\n`);
          throw new CliError(
            `--prune would delete ${n} resource(s) with their history; run again with --prune --yes to do it.`,
            1,
          );
        }
      }
      const report = await send(opts.dryRun ?? false);
      ctx.out(
        `${report.dryRun ? 'Would apply (dry run, nothing written)' : 'Applied'}:\n${describeReport(report)}\n`,
      );
    });
};
