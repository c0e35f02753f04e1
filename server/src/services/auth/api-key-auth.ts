import type { Actor } from '../../domain/actor.js';
import { lowerRole } from '../../domain/actor.js';
import { sha256 } from '../../lib/crypto.js';
import type { ServiceDeps } from '../deps.js';
import type { HeldCredential } from './sessions.js';

const TOUCH_EVERY_MS = 60_000;
export const API_KEY_PATTERN = /^pw_[0-9A-Za-z]{32,}$/;

/**
 * The actor behind a bearer API key. A key never acts above its creator: a demoted creator
 * lowers it, a disabled one switches it off.
 */
export async function resolveApiKey(deps: ServiceDeps, key: string): Promise<Actor | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const keyHash = sha256(key);
  const now = deps.clock.now();
  const cached = deps.authCache.get(`k:${keyHash}`, now);
  if (cached) return cached;
  const found = await readKey(deps, keyHash, now);
  if (!found) return null;
  if (found.lastUsedAt === null || now - found.lastUsedAt > TOUCH_EVERY_MS)
    await deps.repos.apiKeys.touch(found.actor.id, now);
  deps.authCache.set(`k:${keyHash}`, found.actor, now, found.validUntil);
  return found.actor;
}

/** A key as it stands in the database, read without counting as a use (no touch, no cache). */
export async function inspectApiKey(
  deps: ServiceDeps,
  key: string,
): Promise<HeldCredential | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const found = await readKey(deps, sha256(key), deps.clock.now());
  return found && { actor: found.actor, validUntil: found.validUntil };
}

async function readKey(deps: ServiceDeps, keyHash: string, now: number) {
  const k = await deps.repos.apiKeys.findByHash(keyHash);
  if (!k || k.userDisabled || (k.expiresAt !== null && k.expiresAt <= now)) return null;
  const actor: Actor & { type: 'api_key' } = {
    type: 'api_key',
    id: k.id,
    role: lowerRole(k.role, k.userRole),
    label: k.name,
    userId: k.userId,
  };
  return { actor, validUntil: k.expiresAt ?? Number.MAX_SAFE_INTEGER, lastUsedAt: k.lastUsedAt };
}
