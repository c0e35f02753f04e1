import fs from 'node:fs';
import path from 'node:path';
import { ConfigPlan } from '@pagewatch/contract';
import { referencedVariables } from '../../config-as-code/secrets.js';
import { ApiClient } from '../api-client.js';
import { loadChecked } from '../config-files.js';
import { connectionOf, type CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { describePlan, painter } from '../plan-output.js';
import type { RegisterCommand } from './index.js';

interface PlanOptions {
  json?: boolean;
  out?: string;
  prune?: boolean;
  createOnly?: boolean;
}

/** The values of the variables the files refer to: secrets never travel from the files. */
export function referencedEnv(
  ctx: CliContext,
  document: Parameters<typeof referencedVariables>[0],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of referencedVariables(document)) {
    const value = ctx.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** What `plan --out` writes and `apply --plan` reads. */
export const planFileVersion = 1;

/** The token of a plan file, or a clear error. */
export function tokenOfPlanFile(cwd: string, file: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (err) {
    throw new CliError(`Cannot read the plan file ${file}: ${(err as Error).message}`);
  }
  const token = (parsed as { plan?: { token?: unknown } } | null)?.plan?.token;
  if (typeof token !== 'string' || token === '')
    throw new CliError(`${file} is not a plan file (written by pagewatch plan --out).`);
  return token;
}

/** `pagewatch plan <file|folder>… [--json] [--out plan.json]`: the diff against the server. */
export const registerPlan: RegisterCommand = (program, contextOf) => {
  program
    .command('plan')
    .description('show what apply would change, property by property, and drift (admin key)')
    .argument('<paths...>', 'files or folders of *.yaml, *.yml and *.json')
    .option('--json', 'print the plan as JSON')
    .option('--out <file>', 'also write the plan with its token, for apply --plan <file>')
    .option('--prune', 'plan deleting managed resources the files no longer have')
    .option('--create-only', 'plan creating new keys only')
    .action(async (paths: string[], opts: PlanOptions, cmd) => {
      const ctx = contextOf(cmd);
      const document = loadChecked(ctx, paths);
      const connection = connectionOf(ctx);
      const plan = await new ApiClient(connection).call('/config/plan', ConfigPlan, {
        method: 'POST',
        body: {
          document,
          env: referencedEnv(ctx, document),
          mode: opts.createOnly ? 'create-only' : 'upsert',
          prune: opts.prune ?? false,
        },
        timeoutMs: 300_000,
      });
      if (opts.out) {
        const file = { version: planFileVersion, server: connection.url.origin, plan };
        fs.writeFileSync(path.resolve(ctx.cwd, opts.out), `${JSON.stringify(file, null, 2)}\n`);
      }
      if (opts.json) return ctx.out(`${JSON.stringify(plan, null, 2)}\n`);
      ctx.out(describePlan(plan, painter(ctx.colour === true)));
    });
};
