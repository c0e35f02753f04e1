import { Command, CommanderError } from 'commander';
import { commands } from './commands/index.js';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';
import { VERSION } from '../version.js';

export interface CliIo {
  out?: (text: string) => void;
  err?: (text: string) => void;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** Standard input's text; the process's own by default. */
  stdin?: () => Promise<string>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The program: global options, then one sub-command per file of commands/. */
function program(io: Required<CliIo>, contextOf: (cmd: Command) => CliContext): Command {
  const root = new Command('pagewatch')
    .description('Pagewatch from the command line: configuration as code, backups and imports.')
    .version(VERSION, '-v, --version', 'print the version of this CLI')
    .option('--url <url>', 'the server, e.g. http://localhost:3000 (default: $PAGEWATCH_URL)')
    .option('--api-key <key>', 'an API key of the server (default: $PAGEWATCH_API_KEY)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  for (const register of commands) register(root, contextOf);
  return root;
}

/** Runs the CLI on `argv` (without node and the script) and returns the exit code. */
export async function main(argv: readonly string[], given: CliIo = {}): Promise<number> {
  const io: Required<CliIo> = {
    out: given.out ?? ((t) => void process.stdout.write(t)),
    err: given.err ?? ((t) => void process.stderr.write(t)),
    env: given.env ?? process.env,
    cwd: given.cwd ?? process.cwd(),
    stdin: given.stdin ?? readStdin,
  };
  const contextOf = (cmd: Command): CliContext => {
    const opts = cmd.optsWithGlobals<{ url?: string; apiKey?: string }>();
    return {
      out: io.out,
      err: io.err,
      url: opts.url ?? io.env.PAGEWATCH_URL,
      apiKey: opts.apiKey ?? io.env.PAGEWATCH_API_KEY,
      env: io.env,
      cwd: io.cwd,
      stdin: io.stdin,
      // Colour only on a terminal of our own, and never when NO_COLOR is set.
      colour: !given.out && process.stdout.isTTY === true && io.env.NO_COLOR === undefined,
    };
  };
  try {
    await program(io, contextOf).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof CliError) {
      io.err(`pagewatch: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`pagewatch: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  }
}
