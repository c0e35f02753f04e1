import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  BootstrapError,
  parseBootstrap,
  REFRESHED_NAME,
  writeRefreshedBootstrap,
} from '../../engine/checks/domain/bootstrap.js';
import { IANA_DNS_BOOTSTRAP_URL } from '@pagewatch/contract';
import { CliError } from '../errors.js';
import type { RegisterCommand } from './index.js';

/** Where IANA publishes the RDAP bootstrap file for domain names (RFC 9224). */
export const IANA_DNS_BOOTSTRAP = IANA_DNS_BOOTSTRAP_URL;

const TIMEOUT_MS = 20_000;

/**
 * `pagewatch rdap-bootstrap refresh`: downloads IANA's current bootstrap file, checks it, and
 * writes it into the data directory, where the server prefers it over the copy it ships with
 * (every process reads it again within 5 minutes). Run where the server runs, on a machine with internet access; offline it
 * fails and changes nothing.
 */
export const registerRdapBootstrap: RegisterCommand = (program, contextOf) => {
  program
    .command('rdap-bootstrap')
    .description("domain expiry: the registry directory (IANA's RDAP bootstrap file)")
    .command('refresh')
    .description(
      "download IANA's RDAP bootstrap file into the data directory (used from the next start)",
    )
    .option('--from <url>', 'where to download it from', IANA_DNS_BOOTSTRAP)
    .option('--data-dir <dir>', 'the data directory (default: $PAGEWATCH_DATA_DIR or ./data)')
    .action(async (opts: { from: string; dataDir?: string }, cmd) => {
      const ctx = contextOf(cmd);
      const dir = path.resolve(ctx.cwd, opts.dataDir ?? ctx.env.PAGEWATCH_DATA_DIR ?? './data');
      let text: string;
      try {
        const res = await fetch(opts.from, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (!res.ok) throw new Error(`it answered ${res.status}`);
        text = await res.text();
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        const why =
          (err as Error).name === 'TimeoutError'
            ? `no answer within ${TIMEOUT_MS / 1000} s`
            : (cause?.code ?? cause?.message ?? (err as Error).message);
        throw new CliError(
          `Could not download ${opts.from} (${why}). This machine may have no internet access; nothing was changed, and the bootstrap file in use stays as it is.`,
        );
      }
      let services: number;
      try {
        services = parseBootstrap(text).services.size;
      } catch (err) {
        if (err instanceof BootstrapError) {
          throw new CliError(
            `${opts.from} is not an RDAP bootstrap file: ${err.message}. Nothing was changed.`,
            1,
          );
        }
        throw err;
      }
      mkdirSync(dir, { recursive: true });
      writeRefreshedBootstrap(dir, text, opts.from, new Date());
      ctx.out(
        `Wrote ${path.join(dir, REFRESHED_NAME)}: RDAP services for ${services} TLDs. A running Pagewatch uses it within 5 minutes.\n`,
      );
    });
};
