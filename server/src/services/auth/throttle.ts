import { createHmac } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** SPEC §9: 10 failed attempts per 15 minutes, per account and per IP. */
export const LOGIN_LIMIT = 10;
export const LOGIN_WINDOW_MS = 15 * 60_000;

/**
 * What was typed as an email, as a keyed hash: sign-in failures are counted and audited by it
 * without storing the text, which may be a password typed into the wrong box.
 */
export const typedEmailKey = (deps: Pick<ServiceDeps, 'instanceKey'>, email: string): string =>
  createHmac('sha256', deps.instanceKey)
    .update(`login-email:${email.toLowerCase()}`)
    .digest('base64url');

export const subjectsFor = (
  deps: Pick<ServiceDeps, 'instanceKey'>,
  email: string,
  ip: string | null,
): string[] => [`email:${typedEmailKey(deps, email)}`, ...(ip ? [`ip:${ip}`] : [])];

/** Refuses with rate_limited and a Retry-After when any subject used up its failures. */
export async function assertNotThrottled(deps: ServiceDeps, subjects: string[]): Promise<void> {
  const now = deps.clock.now();
  let retryAfterMs = 0;
  for (const subject of subjects) {
    const times = await deps.repos.loginFailures.since(subject, now - LOGIN_WINDOW_MS);
    if (times.length >= LOGIN_LIMIT) {
      // Allowed again once enough of the oldest failures leave the window.
      const freeAt = times[times.length - LOGIN_LIMIT]! + LOGIN_WINDOW_MS;
      retryAfterMs = Math.max(retryAfterMs, freeAt - now);
    }
  }
  if (retryAfterMs > 0) {
    throw new AppError(
      'rate_limited',
      'Too many failed sign-in attempts; wait before trying again',
      undefined,
      Math.ceil(retryAfterMs / 1000),
    );
  }
}

export async function recordFailure(deps: ServiceDeps, subjects: string[]): Promise<void> {
  await deps.repos.loginFailures.record(subjects, deps.clock.now());
}
