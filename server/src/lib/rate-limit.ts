import type { Clock } from './clock.js';

export interface RateLimitOptions {
  /** Requests allowed at once. */
  burst: number;
  /** One more request is allowed every this many ms, up to the burst. */
  refillMs: number;
  /** Keys remembered at most; beyond it the oldest are forgotten (they start full again). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets per key, in memory: cheap enough to sit in front of every public ping. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly clock: Clock,
  ) {}

  /** Takes one request for `key`: 0 when allowed, else the ms until one is. */
  take(key: string): number {
    const { burst, refillMs } = this.options;
    const now = this.clock.now();
    const held = this.buckets.get(key);
    const tokens = held ? Math.min(burst, held.tokens + (now - held.at) / refillMs) : burst;
    if (tokens < 1) return Math.ceil((1 - tokens) * refillMs);
    // Re-inserting keeps the map in last-use order, so eviction drops the longest idle.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > (this.options.maxKeys ?? 10_000))
      this.buckets.delete(this.buckets.keys().next().value!);
    return 0;
  }
}
