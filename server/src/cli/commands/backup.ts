import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ApiClient } from '../api-client.js';
import { connectionOf } from '../context.js';
import { CliError } from '../errors.js';
import { verifyBackupFile } from '../../services/backup/read.js';
import type { RegisterCommand } from './index.js';

/** A whole backup of a large instance takes a while: the download may run for hours. */
const DOWNLOAD_TIMEOUT_MS = 6 * 3_600_000;

function fileNameOf(res: Response): string {
  const given = /filename="([^"/\\]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  return given ?? `pagewatch-${new Date().toISOString().replace(/[:.]/g, '-')}.pagewatch-backup.gz`;
}

/** `-o` names a file, or a folder to put the server's file name in; default: the current folder. */
function targetOf(output: string | undefined, cwd: string, name: string): string {
  if (!output) return path.join(cwd, name);
  const resolved = path.resolve(cwd, output);
  const isDir = fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return isDir || output.endsWith('/') ? path.join(resolved, name) : resolved;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** `pagewatch backup [-o file]`: downloads a backup (admin key), checks it whole, then names it. */
export const registerBackup: RegisterCommand = (program, contextOf) => {
  program
    .command('backup')
    .description(
      'download a backup of everything, history included (needs an admin or owner API key)',
    )
    .option(
      '-o, --output <file>',
      'where to write it (a file or a folder; default: ./<time>.pagewatch-backup.gz)',
    )
    .action(async (opts: { output?: string }, cmd) => {
      const ctx = contextOf(cmd);
      const api = new ApiClient(connectionOf(ctx));
      const res = await api.raw('/backup', { timeoutMs: DOWNLOAD_TIMEOUT_MS });
      if (!res.body) throw new CliError(`${api.origin} answered the backup without a body.`);
      const file = targetOf(opts.output, ctx.cwd, fileNameOf(res));
      const partial = `${file}.partial`;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        await pipeline(
          Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
          fs.createWriteStream(partial, { mode: 0o600 }),
        );
        // A download cut short would be a file that looks whole: it gets its name once read through.
        const check = await verifyBackupFile(partial);
        fs.renameSync(partial, file);
        const bytes = fs.statSync(file).size;
        ctx.out(
          `Wrote ${file} (${mib(bytes)}: ${check.rows} rows in ${check.tables} tables, schema ${check.header.migration}, from ${check.header.engine}).\n` +
            `Its secrets are sealed with this instance's key (fingerprint ${check.header.keyFingerprint}): keep the key (PAGEWATCH_SECRET or data/secret.key) apart from the file.\n`,
        );
      } catch (err) {
        fs.rmSync(partial, { force: true });
        if (err instanceof CliError) throw err;
        throw new CliError(`The backup could not be written to ${file}: ${(err as Error).message}`);
      }
    });
};
