import { pingRun } from '../../domain/heartbeat.js';
import { safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError, conflict } from '../../lib/errors.js';
import { handOver } from '../checks/hand-over.js';
import type { ServiceDeps } from '../deps.js';

/** A `/start` older than this is forgotten: the run it began cannot still be going. */
export const START_FORGOTTEN_MS = 86_400_000;

export interface PingRequest {
  token: string;
  /** `start` marks a run's beginning; `finish` reports how it ended. */
  kind: 'start' | 'finish';
  status: 'up' | 'down';
  message: string | null;
  /** Run duration the job reported, ms. */
  durationMs: number | null;
}

export type PingRecorded = 'up' | 'degraded' | 'down' | 'started';

const unknownToken = () => new AppError('not_found', 'No push monitor has this token');

/**
 * A ping from a job (SPEC §2, §6: its token is its only credential). It is recorded through
 * the engine that schedules the monitor, like a check's result, so monitor state has one
 * writer: this process's, or the partition owner's, to which it is handed over (ADR 24).
 */
export async function receivePing(deps: ServiceDeps, req: PingRequest): Promise<PingRecorded> {
  const target = await deps.repos.monitors.findPushTarget(sha256(req.token));
  // The hash found the row; comparing the token itself as well costs nothing and stays exact.
  if (!target || target.type !== 'push' || !safeEqual(target.token, req.token))
    throw unknownToken();
  if (target.paused)
    throw conflict('The monitor is paused, so pings are not recorded; resume it in Pagewatch');
  const now = deps.clock.now();
  if (req.kind === 'start') {
    await deps.repos.monitors.markPushStarted(target.id, now);
    return 'started';
  }
  const started =
    target.startedAt !== null &&
    now - target.startedAt <= START_FORGOTTEN_MS &&
    now >= target.startedAt
      ? target.startedAt
      : null;
  const run = pingRun(
    {
      status: req.status,
      message: req.message,
      durationMs: req.durationMs ?? (started === null ? null : now - started),
    },
    target.degradedThresholdMs,
  );
  if (!deps.trigger?.pushResult(target.id, run, now)) {
    await handOver(deps, { kind: 'ping', monitorId: target.id, run }, now);
  }
  await deps.repos.monitors.markPinged(target.id, now);
  return run.outcome;
}
