// The scheduler's round grid, so the target can tell each arrival's lateness without the
// server's counters. The same three rules as phaseOf, roundAt and dueOf in
// server/src/domain/schedule.ts (keep them in step): round r of monitor `id` with interval I ms
// is due at phaseOf(id, I) + r × I ms after the Unix epoch.

/** The monitor's phase in [0, interval): Knuth's multiplicative hash of the id. */
export const phaseOf = (id, intervalMs) =>
  (Math.imul(id, 2654435761) >>> 0) % Math.max(1, Math.floor(intervalMs));

/** The round whose slot `t` is in: the last round due at or before `t`. */
export const roundAt = (id, intervalMs, t) =>
  Math.floor((t - phaseOf(id, intervalMs)) / Math.max(1, Math.floor(intervalMs)));

/** When round `round` is due (epoch ms). */
export const dueOf = (id, intervalMs, round) =>
  phaseOf(id, intervalMs) + round * Math.max(1, Math.floor(intervalMs));

/** murmur3's fmix32 mod 1024, the partition of a monitor, as server/src/domain/cluster/partition.ts (keep in step). */
export function partitionOf(id) {
  let h = id >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % 1024;
}
