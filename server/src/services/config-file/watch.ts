import fs from 'node:fs';
import path from 'node:path';
import type { ConfigFileStatus } from '@pagewatch/contract';
import type { Logger } from '../../lib/logger.js';
import type { ServiceDeps } from '../deps.js';
import { readConfigSource } from './files.js';
import { applyConfigFiles, type ConfigFileOptions } from './run.js';
import { readStatus } from './status.js';

export interface ConfigFileWatchOptions extends ConfigFileOptions {
  /** The backstop poll: fs.watch misses changes on some filesystems (network, containers). */
  pollMs: number;
  /** Quiet time after a change event before reading (editors write in several steps). */
  debounceMs?: number;
}

export interface ConfigFileJob {
  /** Reads the files now; applies when their content changed since the last attempt. */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The `config-file` singleton's job (ADR 28): applies PAGEWATCH_CONFIG at once, then again
 * whenever the files' content hash changes — told by fs.watch (debounced) or found by the
 * poll. A failed attempt is retried only when the files change again.
 */
export function startConfigFileWatch(
  deps: ServiceDeps,
  options: ConfigFileWatchOptions,
  logger: Logger,
): ConfigFileJob {
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let status: ConfigFileStatus | null = null;
  // The hash of the last attempt, failed or not: the same files are not tried twice.
  let attempted: string | null = null;
  const attempt = (force: boolean) =>
    (chain = chain.then(async () => {
      if (stopped) return;
      try {
        status ??= await readStatus(deps.repos);
        const hash = hashOf(options.path);
        if (!force && hash === attempted) return;
        // A file read while an editor writes it is half a file: read again once it is still.
        await new Promise((r) => setTimeout(r, settleMs));
        if (hashOf(options.path) !== hash) return void changed();
        attempted = hash;
        status = await applyConfigFiles(deps, options, logger, status);
      } catch (err) {
        logger.error({ err, config: options.path }, 'config file: could not apply');
      }
    }));

  const settleMs = options.debounceMs ?? 300;
  let debounce: NodeJS.Timeout | null = null;
  const changed = () => {
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => void attempt(false), settleMs);
    debounce.unref();
  };
  const watcher = watch(options.path, changed, logger);
  const poll = setInterval(() => void attempt(false), options.pollMs);
  poll.unref();
  // Every start applies: another process may have applied older files before this one.
  void attempt(true);
  return {
    check: () => attempt(false),
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      if (debounce) clearTimeout(debounce);
      watcher?.close();
      await chain;
    },
  };
}

/** What the files hold now, as a hash (the problem itself when they cannot be read). */
function hashOf(source: string): string {
  const read = readConfigSource(source);
  return 'hash' in read ? read.hash : `problems:${JSON.stringify(read.problems)}`;
}

/** Watches the folder (a file's own folder: editors replace files by renaming). */
function watch(source: string, onChange: () => void, logger: Logger): fs.FSWatcher | null {
  try {
    const isDir = fs.statSync(source, { throwIfNoEntry: false })?.isDirectory() ?? false;
    const dir = isDir ? source : path.dirname(source);
    const watcher = fs.watch(dir, { recursive: isDir, persistent: false }, onChange);
    watcher.on('error', (err) => {
      logger.warn({ err, config: source }, 'config file: watching stopped; the poll goes on');
      watcher.close();
    });
    return watcher;
  } catch (err) {
    logger.warn(
      { err, config: source },
      'config file: cannot watch; only the poll notices changes',
    );
    return null;
  }
}
