import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { RESET_LIMITS } from '../services/accounts/throttle.js';
import { LOGIN_WINDOW_MS } from '../services/auth/throttle.js';

const EVERY_MS = 15 * 60_000;

/** Deletes expired sessions, sign-in challenges and throttle entries older than their window
 * (sign-in 15 minutes, reset requests an hour). */
export async function housekeeping(repos: Repositories, clock: Clock): Promise<void> {
  const now = clock.now();
  await repos.sessions.removeExpired(now);
  await repos.passkeys.removeExpiredChallenges(now);
  await repos.loginFailures.prune(now - Math.max(LOGIN_WINDOW_MS, RESET_LIMITS.windowMs));
}

/** Runs housekeeping now and every 15 minutes; returns a stop function. */
export function startHousekeeping(repos: Repositories, clock: Clock, logger: Logger): () => void {
  const run = () =>
    housekeeping(repos, clock).catch((err: unknown) => logger.warn({ err }, 'housekeeping failed'));
  void run();
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
