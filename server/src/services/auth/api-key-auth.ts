import type { Actor } from '../../domain/actor.js';
import { lowerRole } from '../../domain/actor.js';
import { sha256 } from '../../lib/crypto.js';
import type { ServiceDeps } from '../deps.js';

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
  const k = await deps.repos.apiKeys.findByHash(keyHash);
  if (!k || k.userDisabled || (k.expiresAt !== null && k.expiresAt <= now)) return null;
  if (k.lastUsedAt === null || now - k.lastUsedAt > TOUCH_EVERY_MS)
    await deps.repos.apiKeys.touch(k.id, now);
  const actor: Actor = {
    type: 'api_key',
    id: k.id,
    role: lowerRole(k.role, k.userRole),
    label: k.name,
    userId: k.userId,
  };
  deps.authCache.set(`k:${keyHash}`, actor, now, k.expiresAt ?? Number.MAX_SAFE_INTEGER);
  return actor;
}
