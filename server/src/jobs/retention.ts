import { setTimeout as sleep } from 'node:timers/promises';
import type { RetentionSettings } from '@pagewatch/contract';
import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { periodicJob } from '../lib/periodic-job.js';

const DAY_MS = 86_400_000;

/** How long history is kept (SPEC §9 defaults; Settings → Data retention changes it). */
export interface RetentionPolicy {
  rawMs: number;
  minuteMs: number;
  hourMs: number;
  /** null: day rollups are kept forever. */
  dayMs?: number | null;
}

export const defaultRetention: RetentionPolicy = {
  rawMs: 30 * DAY_MS,
  minuteMs: 90 * DAY_MS,
  hourMs: 2 * 365 * DAY_MS,
  dayMs: null,
};

/** The policy the stored settings ask for. */
export function retentionPolicyOf(r: RetentionSettings): RetentionPolicy {
  return {
    rawMs: r.rawDays * DAY_MS,
    minuteMs: r.minuteRollupDays * DAY_MS,
    hourMs: r.hourRollupDays * DAY_MS,
    dayMs: r.dayRollupDays === null ? null : r.dayRollupDays * DAY_MS,
  };
}

export interface RetentionOptions {
  policy: RetentionPolicy;
  /**
   * Read before each pass of the job, so a change in Settings applies from the next pass in
   * whichever process runs it; `policy` when absent.
   */
  policySource?: () => Promise<RetentionPolicy>;
  /** Rows per delete statement at most. */
  batchSize: number;
  /** Monitors one statement covers: a handful of index ranges, not a table scan. */
  monitorsPerStatement: number;
  /** Pause after a statement that deleted something, so the result writer gets its turn. */
  pauseMs: number;
  everyMs: number;
  /** First pass after start-up: soon, but not in the way of the first checks. */
  firstAfterMs: number;
  /** Browser screenshots kept per monitor (newest first); older ones keep only their measurements. */
  screenshotsKept: number;
  /** Sent and failed deliveries are kept this long (the delivery log); undelivered ones always. */
  deliveriesMs: number;
}

export const defaultRetentionOptions: RetentionOptions = {
  policy: defaultRetention,
  batchSize: 5000,
  monitorsPerStatement: 100,
  pauseMs: 20,
  everyMs: 10 * 60_000,
  firstAfterMs: 30_000,
  screenshotsKept: 50,
  deliveriesMs: 30 * DAY_MS,
};

export interface RetentionReport {
  raw: number;
  minute: number;
  hour: number;
  /** Only when day rollups have a keep. */
  day?: number;
}

type Kind = keyof RetentionReport;

/**
 * One pass: deletes what the policy no longer keeps, oldest first, in batches of at most
 * `batchSize` rows per statement, each its own short transaction. `stopped` is asked between
 * statements so shutting down never waits for a whole pass.
 */
export async function runRetention(
  repos: Repositories,
  now: number,
  options: Partial<RetentionOptions> = {},
  stopped: () => boolean = () => false,
): Promise<RetentionReport> {
  const o = { ...defaultRetentionOptions, ...options };
  const { retention } = repos;
  const steps: [Kind, number, (ids: number[], before: number) => Promise<number>][] = [
    ['raw', o.policy.rawMs, (ids, b) => retention.deleteResults(ids, b, o.batchSize)],
    [
      'minute',
      o.policy.minuteMs,
      (ids, b) => retention.deleteRollups('minute', ids, b, o.batchSize),
    ],
    ['hour', o.policy.hourMs, (ids, b) => retention.deleteRollups('hour', ids, b, o.batchSize)],
  ];
  const dayMs = o.policy.dayMs ?? null;
  if (dayMs !== null)
    steps.push(['day', dayMs, (ids, b) => retention.deleteRollups('day', ids, b, o.batchSize)]);
  const report: RetentionReport = {
    raw: 0,
    minute: 0,
    hour: 0,
    ...(dayMs === null ? {} : { day: 0 }),
  };
  const ids = await retention.monitorIds();
  for (const [kind, keepMs, remove] of steps) {
    const before = now - keepMs;
    for (let i = 0; i < ids.length; i += o.monitorsPerStatement) {
      const chunk = ids.slice(i, i + o.monitorsPerStatement);
      for (;;) {
        if (stopped()) return report;
        const n = await remove(chunk, before);
        report[kind] = (report[kind] ?? 0) + n;
        // Even an empty statement yields the event loop before the next one.
        await sleep(n > 0 ? o.pauseMs : 0);
        if (n < o.batchSize) break;
      }
    }
  }
  return report;
}

/**
 * Drops browser screenshots beyond the newest `screenshotsKept` of each monitor, one monitor
 * per statement. Measurements stay until their result expires (the row goes with it).
 */
export async function trimScreenshots(
  repos: Repositories,
  options: Partial<RetentionOptions> = {},
  stopped: () => boolean = () => false,
): Promise<number> {
  const o = { ...defaultRetentionOptions, ...options };
  const ids = await repos.retention.monitorIds();
  let trimmed = 0;
  for (let i = 0; i < ids.length; i += o.monitorsPerStatement) {
    const chunk = ids.slice(i, i + o.monitorsPerStatement);
    for (const id of await repos.browserRuns.monitorsOverScreenshotCap(chunk, o.screenshotsKept)) {
      if (stopped()) return trimmed;
      trimmed += await repos.browserRuns.trimScreenshots(id, o.screenshotsKept);
      await sleep(o.pauseMs);
    }
  }
  return trimmed;
}

/** Deletes sent and failed deliveries older than `deliveriesMs`, in bounded statements. */
export async function pruneDeliveries(
  repos: Repositories,
  now: number,
  options: Partial<RetentionOptions> = {},
  stopped: () => boolean = () => false,
): Promise<number> {
  const o = { ...defaultRetentionOptions, ...options };
  let deleted = 0;
  for (;;) {
    if (stopped()) return deleted;
    const n = await repos.deliveries.prune(now - o.deliveriesMs, o.batchSize);
    deleted += n;
    await sleep(n > 0 ? o.pauseMs : 0);
    if (n < o.batchSize) return deleted;
  }
}

export interface RetentionJob {
  /** Stops the timers and waits for a pass in progress to reach its next statement. */
  stop(): Promise<void>;
}

/** Runs retention shortly after start and then every `everyMs`, one pass at a time. */
export function startRetention(
  repos: Repositories,
  clock: Clock,
  logger: Logger,
  options: Partial<RetentionOptions> = {},
): RetentionJob {
  const o = { ...defaultRetentionOptions, ...options };
  const pass = async (stopped: () => boolean) => {
    const started = Date.now();
    const policy = o.policySource ? await o.policySource() : o.policy;
    const deleted = await runRetention(repos, clock.now(), { ...o, policy }, stopped);
    const screenshots = await trimScreenshots(repos, o, stopped);
    const deliveries = await pruneDeliveries(repos, clock.now(), o, stopped);
    const ms = Date.now() - started;
    const rows = deleted.raw + deleted.minute + deleted.hour + (deleted.day ?? 0);
    if (rows + screenshots + deliveries > 0) {
      logger.info({ deleted, screenshots, deliveries, ms }, 'retention: deleted expired history');
    } else logger.debug({ ms }, 'retention: nothing expired');
  };
  const job = periodicJob(pass, {
    firstMs: o.firstAfterMs,
    everyMs: o.everyMs,
    onError: (err) => logger.warn({ err }, 'retention pass failed; trying again at the next one'),
    unref: true,
  });
  return { stop: () => job.stop() };
}
