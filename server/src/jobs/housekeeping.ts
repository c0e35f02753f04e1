import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { RESET_LIMITS } from '../services/accounts/throttle.js';
import { LOGIN_WINDOW_MS } from '../services/auth/throttle.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';

const EVERY_MS = 15 * 60_000;

/** Deletes expired sessions, sign-in challenges and throttle entries older than their window
 * (sign-in 15 minutes, reset requests an hour). */
export async function housekeeping(repos: Repositories, clock: Clock): Promise<void> {
  const now = clock.now();
  await repos.sessions.removeExpired(now);
  await repos.passkeys.removeExpiredChallenges(now);
  await repos.loginFailures.prune(now - Math.max(LOGIN_WINDOW_MS, RESET_LIMITS.windowMs));
}

/** Runs housekeeping now and every 15 minutes, while this process holds its lease. */
export function startHousekeeping(repos: Repositories, clock: Clock, logger: Logger): PeriodicJob {
  return periodicJob(() => housekeeping(repos, clock), {
    firstMs: 0,
    everyMs: EVERY_MS,
    onError: (err) => logger.warn({ err }, 'housekeeping failed'),
    unref: true,
  });
}
