/** A monitor's dependency links: child → its parents. */
export type ParentLinks = ReadonlyMap<number, readonly number[]>;

/** Builds the child → parents map from link rows. */
export function linksOf(rows: readonly { monitorId: number; parentId: number }[]): ParentLinks {
  const links = new Map<number, number[]>();
  for (const r of rows) {
    const list = links.get(r.monitorId);
    if (list) list.push(r.parentId);
    else links.set(r.monitorId, [r.parentId]);
  }
  return links;
}

/**
 * The cycle that giving `monitorId` the parents `parents` would close, as the ids walked from
 * the monitor back to itself (`[a, b, a]` reads "a depends on b, which depends on a"), or
 * null. The monitor's current links are replaced by `parents` for the walk.
 */
export function cycleThrough(
  links: ParentLinks,
  monitorId: number,
  parents: readonly number[],
): number[] | null {
  const parentsOf = (id: number) => (id === monitorId ? parents : (links.get(id) ?? []));
  // Depth-first from the monitor; `done` holds nodes known not to lead back to it.
  const done = new Set<number>();
  const path: number[] = [monitorId];
  const walk = (id: number): boolean => {
    for (const p of parentsOf(id)) {
      if (p === monitorId) {
        path.push(p);
        return true;
      }
      if (done.has(p) || path.includes(p)) continue;
      path.push(p);
      if (walk(p)) return true;
      path.pop();
      done.add(p);
    }
    return false;
  };
  return walk(monitorId) ? path : null;
}

/**
 * The root a monitor's alerts group under (ADR 42): following first parents up to a monitor
 * without parents. A monitor without parents is its own root. Cycles cannot be stored, but
 * the walk stops at a repeat anyway.
 */
export function dependencyRoot(links: ParentLinks, monitorId: number): number {
  const seen = new Set<number>([monitorId]);
  let id = monitorId;
  for (;;) {
    const first = links.get(id)?.[0];
    if (first === undefined || seen.has(first)) return id;
    seen.add(first);
    id = first;
  }
}
