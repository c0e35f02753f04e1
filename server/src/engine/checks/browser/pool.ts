import fs from 'node:fs';
import type { Browser, BrowserServer } from 'playwright-core';
import type { Logger } from '../../../lib/logger.js';
import { processTreePss } from './process-memory.js';
import { Semaphore } from './semaphore.js';

/** The flags the e2e suite uses: headless, no sandbox (containers), nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where Chromium usually lives when PAGEWATCH_CHROMIUM_PATH is not set. */
export const STANDARD_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export const DEFAULT_BROWSER_CONCURRENCY = 2;
/** Chromium and its renderers together; past this the browser is replaced between checks. */
export const DEFAULT_MAX_MEMORY_BYTES = 1536 * 1024 * 1024;
/** A failed launch is not retried by every browser monitor in the same minute. */
const LAUNCH_RETRY_MS = 30_000;
const MEMORY_PROBE_EVERY_MS = 15_000;

/** No Chromium could be started: the message says what to set up. */
export class BrowserUnavailable extends Error {
  readonly code = 'browser_unavailable';
}

export interface BrowserPoolOptions {
  /** PAGEWATCH_CHROMIUM_PATH; unset: the standard locations are tried. */
  executablePath?: string | undefined;
  concurrency?: number;
  maxMemoryBytes?: number;
  logger: Logger;
}

/** One launched Chromium and the checks currently using it. */
export class BrowserHandle {
  active = 0;
  /** Replaced (memory cap, crash): closed once its last check ends. */
  retired = false;
  /** Disconnected without Pagewatch closing it. */
  crashed = false;
  closing = false;

  constructor(
    readonly server: BrowserServer,
    readonly browser: Browser,
  ) {}

  get pid(): number | null {
    return this.server.process().pid ?? null;
  }
}

export interface BrowserLease {
  browser: Browser;
  handle: BrowserHandle;
  /** Gives the slot back; the browser may be retired if it grew too large. */
  done(): void;
}

/**
 * One shared Chromium for every browser check, started on first use. Checks take one of
 * `concurrency` slots and a fresh context each; the browser is relaunched after a crash and
 * replaced between checks when its process tree grows past the memory cap.
 */
export class BrowserPool {
  private readonly slots: Semaphore;
  private handle: BrowserHandle | null = null;
  private launching: Promise<BrowserHandle> | null = null;
  private launchFailure: { at: number; error: BrowserUnavailable } | null = null;
  private lastMemoryProbe = 0;
  private closed = false;
  private readonly all = new Set<BrowserHandle>();
  private readonly logger: Logger;
  readonly concurrency: number;

  constructor(private readonly options: BrowserPoolOptions) {
    this.concurrency = options.concurrency ?? DEFAULT_BROWSER_CONCURRENCY;
    this.slots = new Semaphore(this.concurrency);
    this.logger = options.logger;
  }

  /** The running browser's process id (tests kill it to prove recovery). */
  get pid(): number | null {
    return this.handle?.pid ?? null;
  }

  get inUse(): number {
    return this.slots.inUse;
  }

  /** Waits for a slot (abortable), then hands out the running browser, launching it if needed. */
  async lease(signal: AbortSignal): Promise<BrowserLease> {
    const release = await this.slots.acquire(signal);
    let handle: BrowserHandle;
    try {
      handle = await this.current();
    } catch (err) {
      release();
      throw err;
    }
    handle.active += 1;
    let ended = false;
    return {
      browser: handle.browser,
      handle,
      done: () => {
        if (ended) return;
        ended = true;
        handle.active -= 1;
        release();
        this.afterCheck(handle);
      },
    };
  }

  /** Kills a browser that stopped answering; the next check launches a new one. */
  kill(handle: BrowserHandle, why: string): void {
    this.logger.warn({ pid: handle.pid, why }, 'killing Chromium');
    this.retire(handle);
    handle.closing = true;
    void handle.server.kill().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.launching?.catch(() => undefined);
    await Promise.all([...this.all].map((h) => this.shutdown(h)));
  }

  private async current(): Promise<BrowserHandle> {
    if (this.closed) throw new BrowserUnavailable('Pagewatch is shutting down');
    if (this.handle && this.handle.browser.isConnected()) return this.handle;
    this.launching ??= this.launch().finally(() => (this.launching = null));
    return this.launching;
  }

  private async launch(): Promise<BrowserHandle> {
    const failed = this.launchFailure;
    if (failed && Date.now() - failed.at < LAUNCH_RETRY_MS) throw failed.error;
    try {
      const executablePath = findChromium(this.options.executablePath);
      // Loaded on first use: playwright-core costs ~80 MiB of memory, which an instance
      // without browser monitors should not pay.
      const { chromium } = await import('playwright-core');
      const server = await chromium.launchServer({
        executablePath,
        args: CHROMIUM_ARGS,
        // Pagewatch handles its own signals and closes the browser on the way out.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: 30_000,
      });
      const browser = await chromium.connect(server.wsEndpoint(), { timeout: 30_000 });
      const handle = new BrowserHandle(server, browser);
      browser.on('disconnected', () => {
        if (!handle.closing) {
          handle.crashed = true;
          this.logger.warn({ pid: handle.pid }, 'Chromium went away; relaunching on next check');
        }
        this.retire(handle);
        void server.kill().catch(() => undefined);
      });
      this.all.add(handle);
      this.handle = handle;
      this.launchFailure = null;
      this.logger.info({ pid: handle.pid, executablePath }, 'Chromium started for browser checks');
      return handle;
    } catch (err) {
      const error =
        err instanceof BrowserUnavailable
          ? err
          : new BrowserUnavailable(
              `Chromium could not be started: ${firstLine(err)}. Check PAGEWATCH_CHROMIUM_PATH.`,
            );
      this.launchFailure = { at: Date.now(), error };
      this.logger.error({ err }, 'browser checks cannot run');
      throw error;
    }
  }

  private retire(handle: BrowserHandle): void {
    handle.retired = true;
    if (this.handle === handle) this.handle = null;
    if (handle.active === 0) void this.shutdown(handle);
  }

  private afterCheck(handle: BrowserHandle): void {
    if (handle.retired) {
      if (handle.active === 0) void this.shutdown(handle);
      return;
    }
    const now = Date.now();
    if (now - this.lastMemoryProbe < MEMORY_PROBE_EVERY_MS) return;
    this.lastMemoryProbe = now;
    const pid = handle.pid;
    const memory = pid === null ? null : processTreePss(pid);
    const cap = this.options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
    if (memory !== null && memory > cap) {
      this.logger.info({ pid, memory, cap }, 'Chromium grew past its memory cap; replacing it');
      this.retire(handle);
    }
  }

  private async shutdown(handle: BrowserHandle): Promise<void> {
    if (!this.all.delete(handle)) return;
    handle.closing = true;
    try {
      await Promise.race([
        handle.browser.close(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('close hung')), 5000)),
      ]);
      await handle.server.close();
    } catch {
      await handle.server.kill().catch(() => undefined);
    }
  }
}

/** The configured path if it exists, else the first standard location that does. */
export function findChromium(configured: string | undefined): string {
  if (configured !== undefined) {
    if (fs.existsSync(configured)) return configured;
    throw new BrowserUnavailable(
      `Chromium is not installed where PAGEWATCH_CHROMIUM_PATH points (${configured}). ` +
        'Install Chromium or fix the path; other monitor types keep running.',
    );
  }
  const found = STANDARD_CHROMIUM_PATHS.find((p) => fs.existsSync(p));
  if (found) return found;
  throw new BrowserUnavailable(
    'No Chromium found for browser checks. Install Chromium (e.g. the chromium package) or set ' +
      'PAGEWATCH_CHROMIUM_PATH to its executable; other monitor types keep running.',
  );
}

const firstLine = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
