import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Clock } from '../lib/clock.js';
import type { EventHub } from '../lib/event-hub.js';
import { dayOf } from './histories.js';

/** What a route renders, before compression. */
export interface Rendered {
  body: string;
  type: string;
  /** Extra response headers (the page's CSP). */
  headers?: Record<string, string>;
  pageId: number;
  monitorIds: readonly number[];
  /** Shows current latency or locations: results refresh it (at most every 30 s). */
  latency: boolean;
}

export type Encoding = 'br' | 'gzip';

export interface CachedBody {
  identity: Buffer;
  /** The body in `encoding`, compressed on first use and kept for everyone after. */
  encoded(encoding: Encoding): Buffer;
  etag: string;
  lastModified: string;
  type: string;
  headers: Record<string, string>;
  pageId: number;
  monitorIds: ReadonlySet<number>;
  latency: boolean;
  createdAt: number;
  day: number;
  stale: boolean;
}

export interface RenderCacheOptions {
  /** Rendered variants kept (pages × routes × hosts), least recently used dropped first. */
  maxEntries?: number;
  /** Uptime figures move with every check; a page is rebuilt at least this often. */
  maxAgeMs?: number;
  latencyRefreshMs?: number;
}

// On the event loop: 150 KiB of page take 0.5 ms at brotli 5, less than a trip through the
// thread pool costs in latency (1.2 ms, with a long tail).
const compressors: Record<Encoding, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => zlib.gzipSync(bytes, { level: 6 }),
  br: (bytes) =>
    zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
};

/**
 * A render ready to serve. Each encoding is compressed once, when a client first asks for it:
 * the request that rendered waits for its own encoding only, and a crowd costs a map lookup.
 */
export function cachedBody(r: Rendered, now: number): CachedBody {
  const identity = Buffer.from(r.body, 'utf8');
  const variants = new Map<Encoding, Buffer>();
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  return {
    identity,
    encoded(encoding) {
      let variant = variants.get(encoding);
      if (!variant) {
        variant = compressors[encoding](identity);
        variants.set(encoding, variant);
      }
      return variant;
    },
    // Weak: the compressed variants share it (RFC 9110 §8.8.1).
    etag: `W/"${hash}"`,
    lastModified: new Date(Math.floor(now / 1000) * 1000).toUTCString(),
    type: r.type,
    headers: r.headers ?? {},
    pageId: r.pageId,
    monitorIds: new Set(r.monitorIds),
    latency: r.latency,
    createdAt: now,
    day: dayOf(now),
    stale: false,
  };
}

/**
 * Rendered public pages in memory, keyed by page, route and host. Events mark entries stale
 * (a flip of one of its monitors, an incident, maintenance, an edit of the page or a monitor);
 * the next request re-renders once while concurrent ones wait for that render.
 */
export class RenderCache {
  private readonly entries = new Map<string, CachedBody>();
  private readonly building = new Map<string, Promise<CachedBody | null>>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly latencyRefreshMs: number;
  private readonly unsubscribe: () => void;

  constructor(
    hub: EventHub,
    private readonly clock: Clock,
    options: RenderCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.latencyRefreshMs = options.latencyRefreshMs ?? 30_000;
    this.unsubscribe = hub.subscribe(({ event }) => {
      switch (event.kind) {
        case 'status':
          return this.dropWhere((e) => e.monitorIds.has(event.monitorId));
        case 'monitor':
          return this.dropWhere((e) => e.monitorIds.has(event.monitorId));
        case 'monitors':
          return this.dropWhere((e) => event.monitorIds.some((id) => e.monitorIds.has(id)));
        case 'result': {
          const old = this.clock.now() - this.latencyRefreshMs;
          return this.dropWhere(
            (e) => e.latency && e.createdAt <= old && e.monitorIds.has(event.monitorId),
            false,
          );
        }
        case 'status-page':
          return this.dropWhere((e) => e.pageId === event.pageId);
        // Incidents can move between monitors and windows cover many: rare, so drop all.
        case 'incident':
        case 'maintenance':
          return this.dropWhere(() => true);
        default:
          return undefined;
      }
    });
  }

  close(): void {
    this.unsubscribe();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached variant for `key`, rendering it when missing, stale, old or from yesterday. */
  async get(key: string, render: () => Promise<Rendered | null>): Promise<CachedBody | null> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && this.fresh(hit, now)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = this.building.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const build = (async () => {
      const rendered = await render();
      if (!rendered) {
        this.entries.delete(key);
        return null;
      }
      const body = cachedBody(rendered, now);
      // An event during the render may not be in it: serve it to those waiting, then rebuild.
      body.stale = this.generation !== generation;
      this.put(key, body);
      return body;
    })();
    this.building.set(key, build);
    try {
      return await build;
    } finally {
      this.building.delete(key);
    }
  }

  /** Drops everything (tests, and the bench's uncached measurement). */
  clear(): void {
    this.entries.clear();
  }

  private fresh(e: CachedBody, now: number): boolean {
    return !e.stale && now - e.createdAt < this.maxAgeMs && e.day === dayOf(now);
  }

  private put(key: string, body: CachedBody): void {
    this.entries.delete(key);
    this.entries.set(key, body);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** `bump`: renders in flight may predate the change (latency refreshes don't care). */
  private dropWhere(test: (e: CachedBody) => boolean, bump = true): void {
    if (bump) this.generation += 1;
    for (const [key, e] of this.entries) if (test(e)) this.entries.delete(key);
  }
}
