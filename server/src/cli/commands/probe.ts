import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../errors.js';
import { runProbe } from '../../probe/main.js';
import { ProbeHttpError } from '../../probe/client.js';
import type { RegisterCommand } from './index.js';

interface ProbeFlags {
  server?: string;
  token?: string;
  ca?: string;
  spoolDir?: string;
  spoolMaxAge: string;
  spoolMaxMb: string;
  chromium?: string;
  clockSkewMs?: string;
}

/**
 * `pagewatch probe --server <url> --token <token>`: a remote probe of a location (ADR 56).
 * Connects outward only, runs until SIGINT/SIGTERM; the token comes from Settings → Locations.
 */
export const registerProbe: RegisterCommand = (program, contextOf) => {
  program
    .command('probe')
    .description("run a remote probe of a location (the command is shown with the probe's token)")
    .option('--server <url>', 'the Pagewatch server (default: $PAGEWATCH_URL)')
    .option('--token <token>', 'the probe token, pwp_… (default: $PAGEWATCH_PROBE_TOKEN)')
    .option('--ca <file>', 'extra trusted CA certificates (PEM) for the server or a proxy')
    .option('--spool-dir <dir>', 'where results wait while the server is away')
    .option('--spool-max-age <seconds>', 'spooled results kept at most this long', '3600')
    .option('--spool-max-mb <mb>', 'the spool on disk at most this big', '256')
    .option('--chromium <path>', 'Chromium for browser checks (default: $PAGEWATCH_CHROMIUM_PATH)')
    .option(
      '--clock-skew-ms <ms>',
      'tests only: shift the clock this probe reads by <ms> (a machine with a wrong clock)',
    )
    .action(async (flags: ProbeFlags, cmd) => {
      const ctx = contextOf(cmd);
      const server = flags.server ?? ctx.env.PAGEWATCH_URL;
      const token = flags.token ?? ctx.env.PAGEWATCH_PROBE_TOKEN;
      if (!server) throw new CliError('No server given: pass --server https://pagewatch.example');
      if (!token?.startsWith('pwp_'))
        throw new CliError('No probe token given: pass --token pwp_… (Settings → Locations)');
      let url: URL;
      try {
        url = new URL(server);
      } catch {
        throw new CliError(`"${server}" is not a URL`);
      }
      const ca = flags.ca ? fs.readFileSync(path.resolve(ctx.cwd, flags.ca), 'utf8') : undefined;
      const spoolDir =
        flags.spoolDir ??
        path.join(os.homedir(), '.pagewatch-probe', token.slice(0, 10).replace(/\W/g, ''));
      const ac = new AbortController();
      const stop = () => ac.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        await runProbe({
          server: url,
          token,
          ...(ca ? { ca } : {}),
          httpsProxy: ctx.env.HTTPS_PROXY ?? ctx.env.https_proxy,
          httpProxy: ctx.env.HTTP_PROXY ?? ctx.env.http_proxy,
          noProxy: ctx.env.NO_PROXY ?? ctx.env.no_proxy,
          spoolDir: path.resolve(ctx.cwd, spoolDir),
          spool: {
            maxAgeMs: Number(flags.spoolMaxAge) * 1000,
            maxBytes: Number(flags.spoolMaxMb) * 1024 * 1024,
          },
          clockSkewMs: Number(flags.clockSkewMs ?? 0),
          chromiumPath: flags.chromium ?? ctx.env.PAGEWATCH_CHROMIUM_PATH,
          log: (text) => ctx.err(`probe: ${text}\n`),
          signal: ac.signal,
        });
      } catch (err) {
        if (err instanceof ProbeHttpError) {
          throw new CliError(`the server refused this probe (${err.status}): ${err.message}`, 1);
        }
        throw err;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
};
