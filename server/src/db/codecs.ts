import type { CheckOutcome } from '@pagewatch/contract';

const outcomes: readonly CheckOutcome[] = ['up', 'degraded', 'down'];

export const encodeOutcome = (o: CheckOutcome): number => outcomes.indexOf(o);
export const decodeOutcome = (n: number): CheckOutcome => outcomes[n] ?? 'down';

/** Latencies are stored as integer microseconds: exact enough and compact in SQLite. */
export const toUs = (ms: number | null): number | null =>
  ms === null ? null : Math.round(ms * 1000);
export const toMs = (us: number | null): number | null =>
  us === null ? null : Math.round(us) / 1000;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
