import { CliError } from './errors.js';

/** Where a command writes and what it was given: the CLI's one reading of the environment. */
export interface CliContext {
  out: (text: string) => void;
  err: (text: string) => void;
  /** PAGEWATCH_URL, or --url. */
  url: string | undefined;
  /** PAGEWATCH_API_KEY, or --api-key. */
  apiKey: string | undefined;
  /** The environment as given, for `${env:NAME}` references in configuration files. */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Everything on standard input (read only by commands that ask for it). */
  stdin: () => Promise<string>;
  /** Standard output is a terminal that may be coloured. */
  colour?: boolean;
}

export interface Connection {
  url: URL;
  apiKey: string;
}

/** The server to talk to and the key to talk with, or a clear error naming what is missing. */
export function connectionOf(ctx: CliContext): Connection {
  if (!ctx.url)
    throw new CliError(
      'No server given: set PAGEWATCH_URL (e.g. http://localhost:3000) or pass --url.',
    );
  let url: URL;
  try {
    url = new URL(ctx.url);
  } catch {
    throw new CliError(`"${ctx.url}" is not a URL: give one like http://localhost:3000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`"${ctx.url}" is not an http:// or https:// URL.`);
  if (!ctx.apiKey)
    throw new CliError(
      'No API key given: create one in Settings → API keys, then set PAGEWATCH_API_KEY or pass --api-key.',
    );
  return { url, apiKey: ctx.apiKey };
}
