/**
 * One live member as the share maths sees it; capacity 0 takes no partitions while a member with
 * capacity is alive, and a share like everyone's when none is (a standby, never a gap).
 */
export interface ShareMember {
  id: string;
  capacity: number;
}

/**
 * Each member's target number of partitions, proportional to its capacity and summing to
 * `partitions` exactly (largest remainder; ties go to the smaller id, so every member computes
 * the same targets from the same list). Capacities are whole numbers.
 */
export function targetShares(
  members: readonly ShareMember[],
  partitions: number,
): Map<string, number> {
  const floored = members.map((m) => ({ id: m.id, capacity: Math.max(0, Math.floor(m.capacity)) }));
  const standbyOnly = floored.every((m) => m.capacity === 0);
  const weighted = floored
    .map((m) => (standbyOnly ? { id: m.id, capacity: 1 } : m))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const total = weighted.reduce((sum, m) => sum + m.capacity, 0);
  const targets = new Map<string, number>();
  if (total === 0) return targets;
  const parts = weighted.map((m) => {
    const exact = partitions * m.capacity;
    return { id: m.id, floor: Math.floor(exact / total), rest: exact % total };
  });
  let left = partitions - parts.reduce((sum, p) => sum + p.floor, 0);
  const byRest = [...parts].sort((a, b) => b.rest - a.rest || (a.id < b.id ? -1 : 1));
  for (const p of byRest) {
    if (left === 0) break;
    if (p.rest === 0) continue;
    p.floor += 1;
    left -= 1;
  }
  for (const p of parts) targets.set(p.id, p.floor);
  return targets;
}

export interface StepInput {
  /** This member's target share. */
  target: number;
  /** Partitions it holds now, draining ones included. */
  owned: number;
  /** Surplus tolerated before releasing anything (hysteresis). */
  slack: number;
  /** Partitions released in one step at most (moves are gradual). */
  maxRelease: number;
}

/** How many partitions to try to acquire and how many to drain and release in one step. */
export function planStep(input: StepInput): { acquire: number; release: number } {
  const { target, owned, slack, maxRelease } = input;
  if (owned < target) return { acquire: target - owned, release: 0 };
  const surplus = owned - target;
  return { acquire: 0, release: surplus > slack ? Math.min(surplus, maxRelease) : 0 };
}

/** Hysteresis for P partitions: about 0.4 % of them, at least one. */
export function defaultSlack(partitions: number): number {
  return Math.max(1, Math.ceil(partitions / 256));
}

/** Gradual release: a sixteenth of the partitions per step, at least one. */
export function defaultMaxRelease(partitions: number): number {
  return Math.max(1, Math.ceil(partitions / 16));
}
