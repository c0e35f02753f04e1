import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProbeHeartbeatAnswer, ProbeStreamLine } from '@pagewatch/contract';
import { CLOCK_WARNING_MS, PROBE_HEARTBEAT_MS } from '../domain/locations.js';
import { BrowserPool } from '../engine/checks/browser/index.js';
import { createLogger } from '../lib/logger.js';
import { VERSION } from '../version.js';
import { ProbeClient, ProbeHttpError, type ProbeClientOptions } from './client.js';
import { ProbeClock } from './clock.js';
import { Reporter } from './reporter.js';
import { ProbeRunner } from './runner.js';
import { Spool, type SpoolOptions } from './spool.js';

export interface ProbeOptions extends ProbeClientOptions {
  spoolDir: string;
  spool?: SpoolOptions;
  /** Shifts this probe's clock (tests of a wrong clock). */
  clockSkewMs?: number;
  chromiumPath?: string;
  log: (text: string) => void;
  signal: AbortSignal;
}

/** A stream silent this long (no line, not even a ping) is taken as dead and reopened. */
const STREAM_SILENCE_MS = 15_000;

/**
 * The remote probe (issue 16, ADR 56): keeps its assignment stream open (reconnecting with
 * back-off), runs the assignment on the server's round grid, sends results each second and a
 * heartbeat every few seconds, and spools results while the server cannot be reached. Resolves
 * when `signal` aborts; rejects when the token is refused (nothing to retry).
 */
export async function runProbe(options: ProbeOptions): Promise<void> {
  const clock = new ProbeClock(options.clockSkewMs ?? 0);
  const client = new ProbeClient(options, () => clock.local());
  const spool = new Spool(options.spoolDir, options.spool);
  const reporter = new Reporter(client, clock, spool, options.log);
  const browser = new BrowserPool({
    executablePath: options.chromiumPath,
    logger: createLogger('warn'),
  });
  const runner = new ProbeRunner(clock, (item) => reporter.add(item), {
    browser: { pool: browser, forbidden: () => false },
    ...(options.ca ? { extraCa: [options.ca] } : {}),
  });
  let warnedClock = false;

  const heartbeat = async () => {
    try {
      const answer = await client.post('heartbeat', {
        version: VERSION,
        host: os.hostname(),
        clockOffsetMs: clock.offsetMs(),
        load: runner.load(),
        latenessP99Ms: runner.latenessP99(),
        spoolDepth: spool.depth(),
        spoolDropped: spool.dropped(),
        monitors: runner.size(),
      });
      const body = answer.body as ProbeHeartbeatAnswer;
      clock.observe(body.serverTime, answer.sentAt, answer.readAt);
      // The server answers: results go to it again. A failed results POST set this false, and
      // only a new stream `hello` set it back, so with the stream still up every later result
      // went to the spool (and then counted as replayed, never flipping a status).
      reporter.online = true;
      const offset = clock.offsetMs() ?? 0;
      if (Math.abs(offset) > CLOCK_WARNING_MS && !warnedClock) {
        options.log(
          `warning: this machine's clock is ${(offset / 1000).toFixed(1)} s off the server's; rounds follow the server's clock (fix NTP here)`,
        );
      }
      warnedClock = Math.abs(offset) > CLOCK_WARNING_MS;
    } catch (err) {
      if (err instanceof ProbeHttpError && err.status === 401) throw err;
    }
  };

  const onLine = (line: ProbeStreamLine, readAt: number) => {
    clock.observeLine(line.serverTime, readAt);
    if (line.type === 'snapshot') {
      runner.replace(line.monitors);
      options.log(`assignment: ${line.monitors.length} monitors`);
    } else if (line.type === 'upsert') {
      for (const m of line.monitors) runner.upsert(m);
      options.log(`assignment: updated ${line.monitors.map((m) => m.id).join(', ')}`);
    } else if (line.type === 'remove') {
      for (const id of line.ids) runner.remove(id);
      options.log(`assignment: removed ${line.ids.join(', ')}`);
    } else if (line.type === 'closing') {
      options.log(`the server closed the assignment stream: ${line.reason}`);
    }
  };

  let fatal: Error | null = null;
  const flusher = setInterval(() => void reporter.flush(), 1000);
  const beats = setInterval(
    () => void heartbeat().catch((err: Error) => (fatal = err)),
    PROBE_HEARTBEAT_MS,
  );
  try {
    let backoff = 1000;
    while (!options.signal.aborted && !fatal) {
      const ac = new AbortController();
      const stop = () => ac.abort();
      options.signal.addEventListener('abort', stop, { once: true });
      let lastLine = Date.now();
      const watchdog = setInterval(() => {
        if (Date.now() - lastLine > STREAM_SILENCE_MS) ac.abort();
      }, 1000);
      try {
        await client.stream(ac.signal, (line, readAt) => {
          lastLine = Date.now();
          if (line.type === 'hello') {
            options.log(`connected: probe ${line.probeId} of location "${line.locationId}"`);
            reporter.online = true;
            backoff = 1000;
            void heartbeat().catch((err: Error) => (fatal = err));
          }
          onLine(line, readAt);
        });
      } catch (err) {
        if (err instanceof ProbeHttpError && (err.status === 401 || err.status === 400)) {
          fatal = err;
          break;
        }
        if (!options.signal.aborted) options.log(`disconnected: ${(err as Error).message}`);
      } finally {
        clearInterval(watchdog);
        options.signal.removeEventListener('abort', stop);
      }
      reporter.online = false;
      if (options.signal.aborted) break;
      await sleep(backoff).catch(() => undefined);
      backoff = Math.min(backoff * 2, 10_000);
    }
  } finally {
    clearInterval(flusher);
    clearInterval(beats);
    runner.stop();
    await reporter.flush().catch(() => undefined);
    await browser.close().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
  if (fatal) throw fatal;
}
