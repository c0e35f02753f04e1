import type { ChallengePurpose, ChallengeRecord } from '../../db/repositories/passkeys.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { unauthenticated } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** A ceremony has this long to be answered (the browser's own timeout is one minute). */
export const CHALLENGE_TTL_MS = 2 * 60_000;
export const CEREMONY_TIMEOUT_MS = 60_000;

/**
 * A fresh challenge (256 random bits), stored server-side by the hash of its base64url form
 * (what clientDataJSON carries back). Answered as bytes: the library encodes a string's UTF-8.
 */
export async function issueChallenge(
  deps: ServiceDeps,
  purpose: ChallengePurpose,
  userId: number | null,
  loginChallengeHash: string | null = null,
): Promise<Uint8Array<ArrayBuffer>> {
  const challenge = randomToken();
  await deps.repos.passkeys.insertChallenge(sha256(challenge), {
    purpose,
    userId,
    loginChallengeHash,
    expiresAt: deps.clock.now() + CHALLENGE_TTL_MS,
  });
  return Uint8Array.from(Buffer.from(challenge, 'base64url'));
}

/** The challenge the browser signed, read from its clientDataJSON (the library checks it again). */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const c = (data as { challenge?: unknown } | null)?.challenge;
    return typeof c === 'string' && c.length <= 200 ? c : null;
  } catch {
    return null;
  }
}

/**
 * Takes the ceremony's challenge out of the store: used once, whatever happens next. Refuses
 * one unknown, spent, lapsed or started for another purpose.
 */
export async function takeChallenge(
  deps: ServiceDeps,
  clientDataJSON: string,
  purpose: ChallengePurpose,
): Promise<{ challenge: string; record: ChallengeRecord }> {
  const challenge = challengeOf(clientDataJSON);
  const record = challenge ? await deps.repos.passkeys.takeChallenge(sha256(challenge)) : null;
  if (!challenge || !record || record.purpose !== purpose || record.expiresAt <= deps.clock.now())
    throw unauthenticated('This passkey request has expired or was already used; try again');
  return { challenge, record };
}
