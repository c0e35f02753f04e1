import type { Actor } from '../../domain/actor.js';

interface Entry {
  actor: Actor;
  expiresAt: number;
  /** The session's own hard expiry, or the key's; the cache never outlives it. */
  validUntil: number;
}

/**
 * Resolved sessions and API keys, kept a few seconds so an authenticated request costs a
 * map lookup instead of two queries. Logouts, role changes and revocations evict at once;
 * the short TTL bounds staleness for changes made by another process.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly max = 10_000,
  ) {}

  get(key: string, now: number): Actor | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expiresAt <= now || e.validUntil <= now) {
      this.entries.delete(key);
      return null;
    }
    return e.actor;
  }

  set(key: string, actor: Actor, now: number, validUntil: number): void {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, { actor, expiresAt: now + this.ttlMs, validUntil });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops everything cached for a person: their sessions and their API keys. */
  evictUser(userId: number): void {
    for (const [key, e] of this.entries) {
      const a = e.actor;
      if ((a.type === 'user' && a.id === userId) || (a.type === 'api_key' && a.userId === userId))
        this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
