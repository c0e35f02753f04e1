import { fmix32, partitionOf } from './cluster/index.js';
import { dueOf, roundAt } from './schedule.js';

/** A location whose probes have all been silent this long is offline (issue 16 item 5). */
export const OFFLINE_AFTER_MS = 30_000;
/** A probe sends a heartbeat this often. */
export const PROBE_HEARTBEAT_MS = 5_000;
/** A probe silent this long leaves its pool: its partitions go to the others. */
export const POOL_LEAVE_MS = 15_000;
/** A clock further off than this is shown as a warning (never refused). */
export const CLOCK_WARNING_MS = 2_000;
/** A result may name a round due at most this far in the server's future (clock noise). */
export const FUTURE_ROUND_SLACK_MS = 5_000;

export const probeOnline = (lastHeartbeatAt: number | null, now: number): boolean =>
  lastHeartbeatAt !== null && now - lastHeartbeatAt < OFFLINE_AFTER_MS;

export const clockWarning = (offsetMs: number | null): boolean =>
  offsetMs !== null && Math.abs(offsetMs) > CLOCK_WARNING_MS;

/**
 * The probe of a pool that runs a monitor: the partition's highest-weighted live probe
 * (rendezvous hashing). Every server process computes the same owner from the same live set,
 * and a probe leaving moves only its own partitions (ADR 56).
 */
export function poolOwner(monitorId: number, probeIds: readonly number[]): number | null {
  const partition = partitionOf(monitorId);
  let best: number | null = null;
  let bestWeight = -1;
  for (const id of probeIds) {
    const weight = fmix32((partition * 0x9e3779b1) ^ id) >>> 0;
    if (weight > bestWeight || (weight === bestWeight && best !== null && id < best)) {
      best = id;
      bestWeight = weight;
    }
  }
  return best;
}

export type RoundRefusal = 'round_off_grid' | 'round_in_future';

/**
 * Whether `roundAtMs` is a due time of the monitor's round grid and not ahead of the server:
 * a probe with a wrong clock cannot put a result in another round.
 */
export function checkRound(
  monitorId: number,
  intervalMs: number,
  roundAtMs: number,
  now: number,
): RoundRefusal | null {
  const round = roundAt(monitorId, intervalMs, roundAtMs);
  if (dueOf(monitorId, intervalMs, round) !== roundAtMs) return 'round_off_grid';
  if (roundAtMs > now + FUTURE_ROUND_SLACK_MS) return 'round_in_future';
  return null;
}

/**
 * A result is live while its round could still be the monitor's latest: reported within one
 * interval plus its timeout and some slack of its due time. Later ones are history only, so a
 * backlog never flips a status (issue 16: 0 false flips from late results).
 */
export function arrivedLate(
  roundAtMs: number,
  intervalMs: number,
  timeoutMs: number,
  now: number,
): boolean {
  return now - roundAtMs > intervalMs + timeoutMs + 10_000;
}
