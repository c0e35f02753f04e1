import fs from 'node:fs';
import path from 'node:path';
import { ConfigDocument, configDocumentVersion, configKinds } from '@pagewatch/contract';
import { formatDocument, formatOfFile, type ConfigFormat } from '../../config-as-code/format.js';
import { ApiClient } from '../api-client.js';
import { connectionOf } from '../context.js';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';

/** With --dir: one file per kind, each a document of its own. */
const fileOfKind = {
  channels: 'channels',
  monitors: 'monitors',
  statusPages: 'status-pages',
  maintenance: 'maintenance',
  slos: 'slos',
} as const;

interface ExportOptions {
  output?: string;
  dir?: string;
  format?: string;
}

function formatOf(opts: ExportOptions): ConfigFormat {
  if (opts.format !== undefined && opts.format !== 'yaml' && opts.format !== 'json')
    throw new CliError(`--format is yaml or json, not "${opts.format}".`);
  return opts.format ?? (opts.output ? formatOfFile(opts.output) : 'yaml');
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** `pagewatch export [-o file | --dir folder] [--format yaml|json]`: the live configuration as files. */
export const registerExport: RegisterCommand = (program, contextOf) => {
  program
    .command('export')
    .description('write the server’s configuration as files (needs an admin or owner API key)')
    .option('-o, --output <file>', 'one file (.yaml, .yml or .json); default: standard output')
    .option('--dir <folder>', 'one file per kind of resource in this folder')
    .option('--format <format>', 'yaml or json (default: from the file name, else yaml)')
    .action(async (opts: ExportOptions, cmd) => {
      const ctx = contextOf(cmd);
      if (opts.output && opts.dir) throw new CliError('Give -o or --dir, not both.');
      const format = formatOf(opts);
      const api = new ApiClient(connectionOf(ctx));
      const document = await api.call('/export', ConfigDocument, { timeoutMs: 120_000 });
      if (opts.dir) {
        const ext = format === 'json' ? 'json' : 'yaml';
        for (const kind of configKinds) {
          const part = {
            version: configDocumentVersion,
            [kind]: document[kind],
          } as unknown as ConfigDocument;
          write(
            path.resolve(ctx.cwd, opts.dir, `${fileOfKind[kind]}.${ext}`),
            formatDocument(part, format),
          );
        }
      } else if (opts.output)
        write(path.resolve(ctx.cwd, opts.output), formatDocument(document, format));
      else return ctx.out(formatDocument(document, format));
      ctx.out(
        `Exported ${document.monitors.length} monitor(s), ${document.channels.length} channel(s), ` +
          `${document.statusPages.length} status page(s), ${document.maintenance.length} maintenance window(s).\n`,
      );
    });
};
