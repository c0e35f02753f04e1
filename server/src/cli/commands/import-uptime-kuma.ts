import fs from 'node:fs/promises';
import path from 'node:path';
import { importLimits, ImportReport, type ImportItem } from '@pagewatch/contract';
import { ApiClient } from '../api-client.js';
import { connectionOf } from '../context.js';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';

const outcomeWords: Record<ImportItem['outcome'], string> = {
  created: 'created',
  existing: 'already imported, left as it is',
  merged: 'merged',
  skipped: 'skipped',
};

const kindWords: Record<ImportItem['kind'], string> = {
  monitor: 'Monitors',
  channel: 'Notification channels',
  statusPage: 'Status pages',
  maintenance: 'Maintenance windows',
};

/** The report as people read it: per kind, one line per thing found, notes indented. */
export function formatImportReport(report: ImportReport): string {
  const lines = [
    `${report.dryRun ? 'Preview (nothing written)' : 'Imported'} from ${report.origin}`,
  ];
  for (const kind of ['monitor', 'channel', 'statusPage', 'maintenance'] as const) {
    const items = report.items.filter((i) => i.kind === kind);
    if (items.length === 0) continue;
    lines.push('', `${kindWords[kind]}:`);
    for (const i of items) {
      const verb = report.dryRun && i.outcome === 'created' ? 'to create' : outcomeWords[i.outcome];
      const key = i.key ? ` → ${i.key}` : '';
      lines.push(
        `  ${verb.padEnd(9)} ${i.source} "${i.name}"${key}${i.reason ? `: ${i.reason}` : ''}`,
      );
      for (const note of i.notes) lines.push(`              · ${note}`);
    }
  }
  const c = report.counts;
  const h = report.history;
  lines.push(
    '',
    `${c.created ?? 0} ${report.dryRun ? 'to create' : 'created'}, ${c.existing ?? 0} already imported, ${c.merged ?? 0} merged, ${c.skipped ?? 0} skipped.`,
    `History: ${h.days} days, ${h.hours} hours and ${h.minutes} minutes of statistics for ${h.monitors} monitors.`,
  );
  if (report.dryRun) lines.push('Run again without --dry-run to write it.');
  return `${lines.join('\n')}\n`;
}

/**
 * `pagewatch import uptime-kuma <file>`: uploads Kuma's database or JSON backup to the server,
 * which maps and writes it in one transaction (or only reports, with --dry-run).
 */
export const registerImportUptimeKuma: RegisterCommand = (program, contextOf) => {
  const group =
    program.commands.find((c) => c.name() === 'import') ??
    program.command('import').description('import monitors and more from another tool');
  group
    .command('uptime-kuma')
    .argument('<file>', "Uptime Kuma 2.x's kuma.db (stop Kuma first) or a 1.x JSON backup")
    .option('--dry-run', 'print what would be imported, write nothing')
    .description('import monitors, notifications, status pages, maintenance and 90 days of history')
    .action(async (file: string, opts: { dryRun?: boolean }, cmd) => {
      const ctx = contextOf(cmd);
      const api = new ApiClient(connectionOf(ctx));
      const where = path.resolve(ctx.cwd, file);
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(where);
      } catch (err) {
        throw new CliError(
          `Cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
      if (bytes.length > importLimits.bytesMax) {
        throw new CliError(`${where} is ${bytes.length} bytes; imports are limited to 20 MiB.`, 1);
      }
      const report = await api.call('/import/uptime-kuma', ImportReport, {
        method: 'POST',
        query: { dryRun: opts.dryRun === true },
        upload: { bytes, contentType: 'application/octet-stream' },
        timeoutMs: 120_000,
      });
      ctx.out(formatImportReport(report));
    });
};
