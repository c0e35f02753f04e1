/**
 * Monitors are shared between scheduler processes in a fixed number of partitions: a process
 * holds partition leases, never per-monitor ones, so the lease table stays 1,024 rows however
 * many monitors there are (ADR 21).
 */
export const PARTITIONS = 1024;

/** murmur3's 32-bit finaliser: every input bit flips about half the output bits. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The partition a monitor belongs to: pure and stable across processes, versions and restarts. */
export function partitionOf(monitorId: number, partitions: number = PARTITIONS): number {
  return fmix32(monitorId) % partitions;
}
