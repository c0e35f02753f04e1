import fs from 'node:fs/promises';
import path from 'node:path';
import { importLimits, ImportReport } from '@pagewatch/contract';
import { stringify } from 'yaml';
import {
  mergeGatusFiles,
  parseYaml,
  substituteEnv,
} from '../../config-as-code/importers/gatus/index.js';
import { AppError } from '../../lib/errors.js';
import { ApiClient } from '../api-client.js';
import { connectionOf } from '../context.js';
import { CliError } from '../errors.js';
import { formatImportReport } from './import-uptime-kuma.js';
import type { RegisterCommand } from './index.js';

async function read(where: string): Promise<string> {
  const stat = await fs.stat(where);
  if (stat.size > importLimits.bytesMax) {
    throw new CliError(`${where} is ${stat.size} bytes; imports are limited to 20 MiB.`, 1);
  }
  return fs.readFile(where, 'utf8');
}

/** Every *.yaml and *.yml under a folder, in path order (Gatus walks the folder so). */
async function yamlFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * The text to send: one file with its variables substituted, or a folder's files each
 * substituted, parsed and merged as Gatus merges them. Every `$` is then written `$$`, so the
 * server reads values as given and refuses references this step left.
 */
export async function gatusUpload(
  where: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const stat = await fs.stat(where);
  let text: string;
  if (stat.isDirectory()) {
    const files = await yamlFiles(where);
    if (files.length === 0) throw new CliError(`${where} has no .yaml or .yml files.`, 1);
    const parsed = [];
    for (const file of files) {
      const name = path.relative(where, file);
      parsed.push({ name, value: parseYaml(substituteEnv(await read(file), env), name) });
    }
    text = stringify(mergeGatusFiles(parsed));
  } else {
    text = substituteEnv(await read(where), env);
  }
  if (Buffer.byteLength(text) > importLimits.bytesMax) {
    throw new CliError('The configuration is over 20 MiB, the import limit.', 1);
  }
  return text.replace(/\$/g, '$$$$');
}

/**
 * `pagewatch import gatus <file | folder>`: substitutes `$VAR`/`${VAR}` from this shell's
 * environment, merges a folder, and uploads the YAML; the server maps and writes it in one
 * transaction (or only reports, with --dry-run).
 */
export const registerImportGatus: RegisterCommand = (program, contextOf) => {
  const group =
    program.commands.find((c) => c.name() === 'import') ??
    program.command('import').description('import monitors and more from another tool');
  group
    .command('gatus')
    .argument('<path>', "Gatus's config.yaml, or its configuration folder")
    .option('--dry-run', 'print what would be imported, write nothing')
    .description('import endpoints, conditions, alerts and alerting providers from Gatus')
    .action(async (file: string, opts: { dryRun?: boolean }, cmd) => {
      const ctx = contextOf(cmd);
      const where = path.resolve(ctx.cwd, file);
      let text: string;
      try {
        text = await gatusUpload(where, ctx.env);
      } catch (err) {
        if (err instanceof AppError) throw new CliError(`${file}: ${err.message}`, 1);
        if (err instanceof CliError) throw err;
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new CliError(`Cannot read ${where}: ${code}`);
      }
      const api = new ApiClient(connectionOf(ctx));
      const report = await api.call('/import/gatus', ImportReport, {
        method: 'POST',
        query: { dryRun: opts.dryRun === true },
        upload: { bytes: Buffer.from(text), contentType: 'application/yaml' },
        timeoutMs: 120_000,
      });
      // Gatus keeps no history to import: the Kuma report's history line says nothing here.
      ctx.out(formatImportReport(report).replace(/^History: .*\n/m, ''));
    });
};
