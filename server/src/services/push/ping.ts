import { pingRun } from '../../domain/heartbeat.js';
import { safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError, conflict, unavailable } from '../../lib/errors.js';
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
 * the engine, like a check's result, so monitor state has one writer; a process without the
 * scheduler role cannot take pings.
 */
export async function receivePing(deps: ServiceDeps, req: PingRequest): Promise<PingRecorded> {
  const target = await deps.repos.monitors.findPushTarget(sha256(req.token));
  // The hash found the row; comparing the token itself as well costs nothing and stays exact.
  if (!target || target.type !== 'push' || !safeEqual(target.token, req.token))
    throw unknownToken();
  if (target.paused)
    throw conflict('The monitor is paused, so pings are not recorded; resume it in Pagewatch');
  if (!deps.trigger)
    throw unavailable(
      'This process does not run the scheduler (PAGEWATCH_ROLES); send pings to one that does',
    );
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
  if (!deps.trigger.pushResult(target.id, run, now))
    throw unavailable('The scheduler has not picked this monitor up yet; try again in a moment');
  await deps.repos.monitors.markPinged(target.id, now);
  return run.outcome;
}
