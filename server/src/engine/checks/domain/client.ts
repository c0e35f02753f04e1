import {
  loadBootstrapFile,
  servicesFor,
  SHIPPED_BOOTSTRAP,
  type RdapBootstrap,
} from './bootstrap.js';
import { lookupDomain, type RdapAnswer, type RdapFailureCode } from './rdap.js';

/**
 * RDAP lookups as monitors make them: cached per registered domain, so a registry is asked a
 * few times a day whatever the monitors' intervals (ADR 46), one lookup at a time per domain,
 * and a service that answered 429 is left alone until its Retry-After has passed.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const rdapCacheTimes = {
  /** A found registration: two lookups a day; expiry dates move by renewals, not by the hour. */
  found: 12 * HOUR,
  /** Not registered: asked again a few times a day (someone may register it). */
  notFound: 6 * HOUR,
  /** Timeouts, server errors and bad answers: tried again after a quarter of an hour. */
  failed: 15 * MINUTE,
  /** 429 without Retry-After; Retry-After itself is held between a minute and a day. */
  rateLimited: HOUR,
  rateLimitedMin: MINUTE,
  rateLimitedMax: 24 * HOUR,
  /** A failed lookup still judges by the last good answer up to this age. */
  staleUsable: 7 * 24 * HOUR,
} as const;

const MAX_ENTRIES = 20_000;
/** How often a bootstrap read from a file is read again (a refresh in another process). */
const BOOTSTRAP_RELOAD_MS = 5 * MINUTE;

interface Entry {
  answer: RdapAnswer;
  until: number;
  lastGood: Extract<RdapAnswer, { ok: true }> | null;
}

export interface Registration {
  answer: RdapAnswer;
  /** True when this call asked the registry (false: from the cache). */
  lookedUp: boolean;
  /** The last successful answer, for judging while the registry fails. */
  lastGood: Extract<RdapAnswer, { ok: true }> | null;
  /** Time the lookup took, ms, when one was made. */
  durationMs: number | null;
}

export interface RdapClientOptions {
  /**
   * The bootstrap, or how to read it: on first use, then again every 5 minutes, so a file
   * refreshed in the data directory reaches every process without a restart.
   */
  bootstrap?: RdapBootstrap | (() => RdapBootstrap);
  now?: () => number;
}

const TRANSIENT: ReadonlySet<RdapFailureCode> = new Set([
  'rdap_timeout',
  'rdap_rate_limited',
  'rdap_unavailable',
  'rdap_bad_answer',
]);

export const isTransient = (code: RdapFailureCode): boolean => TRANSIENT.has(code);

export class RdapClient {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Registration>>();
  /** RDAP base URL → when its rate limit ends. */
  private readonly blocked = new Map<string, number>();
  private loaded: RdapBootstrap | null = null;
  private loadedAt = 0;
  private readonly now: () => number;
  /** Lookups sent to registries since start (tests and metrics read it). */
  lookups = 0;

  constructor(private readonly options: RdapClientOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  bootstrap(): RdapBootstrap {
    const given = this.options.bootstrap;
    if (this.loaded !== null && typeof given === 'function') {
      if (this.now() - this.loadedAt >= BOOTSTRAP_RELOAD_MS) {
        this.loadedAt = this.now();
        try {
          this.loaded = given();
        } catch {
          // A file being replaced or broken by hand: keep the one in use.
        }
      }
    }
    if (this.loaded === null) {
      this.loadedAt = this.now();
      this.loaded =
        given === undefined
          ? loadBootstrapFile(SHIPPED_BOOTSTRAP)
          : typeof given === 'function'
            ? given()
            : given;
    }
    return this.loaded;
  }

  /** Forgets cached answers and rate limits (a refreshed bootstrap file). */
  reset(bootstrap?: RdapBootstrap): void {
    this.entries.clear();
    this.blocked.clear();
    if (bootstrap) this.loaded = bootstrap;
  }

  async registration(
    domain: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<Registration> {
    const now = this.now();
    const entry = this.entries.get(domain);
    if (entry && now < entry.until) {
      return { answer: entry.answer, lookedUp: false, lastGood: entry.lastGood, durationMs: null };
    }
    const running = this.inFlight.get(domain);
    if (running) return running;
    const [server] = servicesFor(this.bootstrap(), domain);
    const blockedUntil = server === undefined ? undefined : this.blocked.get(server);
    if (blockedUntil !== undefined && now < blockedUntil) {
      const answer: RdapAnswer = {
        ok: false,
        domain,
        server: server ?? null,
        code: 'rdap_rate_limited',
        message: `The RDAP service limits requests; asking again after ${new Date(blockedUntil).toISOString()}`,
        at: now,
        retryAfterMs: blockedUntil - now,
      };
      return { answer, lookedUp: false, lastGood: entry?.lastGood ?? null, durationMs: null };
    }
    const lookup = this.lookUp(domain, entry?.lastGood ?? null, options).finally(() =>
      this.inFlight.delete(domain),
    );
    this.inFlight.set(domain, lookup);
    return lookup;
  }

  private async lookUp(
    domain: string,
    lastGood: Entry['lastGood'],
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<Registration> {
    const started = this.now();
    this.lookups += 1;
    const answer = await lookupDomain(this.bootstrap(), domain, { ...options, now: this.now });
    const at = this.now();
    const good = answer.ok ? answer : lastGood;
    if (!answer.ok && answer.code === 'rdap_rate_limited' && answer.server !== null) {
      const wait = Math.min(
        rdapCacheTimes.rateLimitedMax,
        Math.max(rdapCacheTimes.rateLimitedMin, answer.retryAfterMs ?? rdapCacheTimes.rateLimited),
      );
      this.blocked.set(answer.server, at + wait);
    }
    // An aborted check (shutdown) leaves nothing behind: the next one asks again.
    if (!options.signal?.aborted) {
      const ttl = answer.ok
        ? rdapCacheTimes.found
        : answer.code === 'domain_not_found'
          ? rdapCacheTimes.notFound
          : answer.code === 'rdap_rate_limited'
            ? Math.max(
                rdapCacheTimes.rateLimitedMin,
                (this.blocked.get(answer.server ?? '') ?? at + rdapCacheTimes.rateLimited) - at,
              )
            : answer.code === 'rdap_unsupported'
              ? 0
              : rdapCacheTimes.failed;
      if (this.entries.size >= MAX_ENTRIES) {
        this.entries.delete(this.entries.keys().next().value!);
      }
      this.entries.delete(domain);
      this.entries.set(domain, { answer, until: at + ttl, lastGood: good });
    }
    return { answer, lookedUp: true, lastGood: good, durationMs: at - started };
  }
}

/** The process's client for engines given none (tests give their own). */
let shared: RdapClient | null = null;
export function sharedRdapClient(): RdapClient {
  shared ??= new RdapClient();
  return shared;
}
