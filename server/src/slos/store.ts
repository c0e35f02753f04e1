import type { StoredSlo } from '../db/repositories/slos.js';
import type { MonitorCounters } from '../domain/slo/index.js';
import type { CounterSource } from '../services/slos/figures.js';

/** Counters older than this are not trusted by readers: the evaluator stopped or moved away. */
const FRESH_MS = 3 * 60_000;

/**
 * The SLO evaluator's live counters (ADR 53), shared with this process's API so SLO screens
 * read burn rates from memory; readers fall back to the database once the evaluator stops.
 */
export class SloCounterStore implements CounterSource {
  readonly counters = new Map<number, MonitorCounters>();
  /** The first minute not yet read; 0 before the first pass. */
  closedTo = 0;
  syncedAt = 0;
  /** The alerting SLOs as last read, with the alert states this evaluator moved since. */
  slos: StoredSlo[] | null = null;
  /** `repos.slos.version()` when `slos` was read. */
  slosVersion = '';

  constructor(private readonly now: () => number) {}

  countersOf(monitorId: number): MonitorCounters | undefined {
    if (this.now() - this.syncedAt > FRESH_MS) return undefined;
    return this.counters.get(monitorId);
  }
}
