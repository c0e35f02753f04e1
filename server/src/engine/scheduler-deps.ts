import type { CheckRun } from '../domain/check-run.js';
import type { MonitorRecord } from '../domain/monitor.js';
import type { OverloadVerdict } from '../domain/overload.js';
import type { ResultWrite } from '../db/repositories/results.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';

/** What the scheduler is given: how to run and record a check, and who may act. */
export interface SchedulerDeps {
  run(monitor: MonitorRecord, signal: AbortSignal): Promise<CheckRun>;
  record(write: ResultWrite): void;
  /**
   * Records a check of a monitor decided by several locations as location `local`'s result of
   * the round due at `roundDue` (ADR 58); absent: every monitor is decided here alone.
   */
  recordLocation?: (
    monitor: MonitorRecord,
    run: CheckRun,
    startedAt: number,
    roundDue: number,
  ) => void;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  /** Called with how late each check started, in ms. */
  onStart?: (latenessMs: number) => void;
  /** How long this process was stalled (event loop blocked, CPU starved) within a span. */
  stalls?: { stalledWithin(from: number, to: number): number };
  /** Called when a result is thrown away because Pagewatch itself was overloaded. */
  onDiscard?: (reason: Exclude<OverloadVerdict, null>, monitorId: number) => void;
  /** The earliest a monitor's check may run (types whose results arrive by push); null: as planned. */
  notBefore?: (monitor: MonitorRecord) => number | null;
  /** Whether the monitor is in an active maintenance window at this instant. */
  inMaintenance?: (monitorId: number, at: number) => boolean;
  /**
   * Whether this process may act for the monitor now (it holds the monitor's partition lease,
   * ADR 21). Asked before a check starts and again before its result is recorded, so a process
   * that lost the lease meanwhile (expired, fenced after a freeze) records nothing.
   */
  owns?: (monitorId: number) => boolean;
  /** Called when a result is thrown away because the partition was lost while the check ran. */
  onUnowned?: (monitorId: number) => void;
}
