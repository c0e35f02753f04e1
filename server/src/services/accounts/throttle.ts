import { createHmac } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** Reset requests: 5 an hour per typed address, 20 an hour per client address (ADR 34). */
export const RESET_LIMITS = { perEmail: 5, perIp: 20, windowMs: 60 * 60_000 } as const;

const emailKey = (deps: ServiceDeps, email: string) =>
  createHmac('sha256', deps.instanceKey)
    .update(`reset-email:${email.toLowerCase()}`)
    .digest('base64url');

/**
 * Counts a reset request against its address and client, or refuses it with rate_limited. The
 * count is the same whether the address has an account: the limit tells nothing about it.
 */
export async function takeResetAttempt(
  deps: ServiceDeps,
  email: string,
  ip: string | null,
): Promise<void> {
  const now = deps.clock.now();
  const since = now - RESET_LIMITS.windowMs;
  const subjects: [string, number][] = [
    [`reset-email:${emailKey(deps, email)}`, RESET_LIMITS.perEmail],
  ];
  if (ip) subjects.push([`reset-ip:${ip}`, RESET_LIMITS.perIp]);
  let retryAfterMs = 0;
  for (const [subject, limit] of subjects) {
    const times = await deps.repos.loginFailures.since(subject, since);
    if (times.length >= limit)
      retryAfterMs = Math.max(
        retryAfterMs,
        times[times.length - limit]! + RESET_LIMITS.windowMs - now,
      );
  }
  if (retryAfterMs > 0)
    throw new AppError(
      'rate_limited',
      'Too many reset requests; wait before asking again',
      undefined,
      Math.max(1, Math.ceil(retryAfterMs / 1000)),
    );
  await deps.repos.loginFailures.record(
    subjects.map(([s]) => s),
    now,
  );
}
