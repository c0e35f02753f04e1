import { freshForMs } from '../domain/quorum/verdict.js';
import type { PublicLocationState } from '../db/repositories/status-public.js';
import type { ComponentStatus, PublicLocation } from './view-model.js';

/**
 * A component's locations as the public sees them (ADR 66): each location's live verdict, or
 * unknown when it has none fresh (never up); sorted by name. Only for a monitor checked from
 * more than one location; nothing while it is paused.
 */
export function presentLocations(
  state: PublicLocationState | undefined,
  status: ComponentStatus,
  now: number,
): { locations: PublicLocation[]; failing?: string[] } | null {
  if (!state || state.locations.length < 2 || status === 'paused') return null;
  const freshMs = freshForMs(state.intervalS);
  const locations = state.locations
    .map(({ id, name }): PublicLocation => {
      const v = state.verdicts.find((x) => x.locationId === id);
      const fresh = v !== undefined && now - v.checkedAt <= freshMs;
      return { name, status: fresh ? v.outcome : 'unknown' };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  if (status !== 'regional') return { locations };
  return {
    locations,
    failing: locations.filter((l) => l.status === 'down').map((l) => l.name),
  };
}
