import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../lib/api';
import { monitorLocationsQuery, saveLocations } from './api';

/**
 * The monitor form's locations and k (ADR 58): their own resource, saved right after the
 * monitor. `id` is the monitor edited (null when creating); `from` the one cloned.
 */
export function useLocationDraft(id: number | null, from: number | null = id) {
  const client = useQueryClient();
  const stored = useQuery({
    ...monitorLocationsQuery(from ?? 0),
    enabled: from !== null,
    refetchInterval: false,
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [quorum, setQuorum] = useState<number | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const locations = chosen ?? stored.data?.locations.map((l) => l.id) ?? ['local'];
  const k = quorum === undefined ? (stored.data?.quorum ?? null) : quorum;
  const changed = chosen !== null || quorum !== undefined || (from !== id && stored.data != null);
  const plain = locations.length === 1 && locations[0] === 'local' && k === null;
  return {
    locations,
    quorum: k,
    error,
    toggle(locationId: string, on: boolean) {
      const next = on ? [...locations, locationId] : locations.filter((l) => l !== locationId);
      setChosen([...new Set(next)].sort());
      // A k above the locations left would be refused: fall back to the majority.
      if (k !== null && k > next.length) setQuorum(null);
    },
    setQuorum,
    /** Saves for the monitor just written; false (with `error` set) when refused. */
    async save(monitorId: number): Promise<boolean> {
      // A new monitor checked from `local` alone needs nothing stored.
      if (!changed || (id === null && plain)) return true;
      if (locations.length === 0) {
        setError('Choose at least one location');
        return false;
      }
      try {
        await saveLocations(monitorId, { locations, quorum: k });
        setError(null);
        void client.invalidateQueries({ queryKey: ['monitors'] });
        return true;
      } catch (e) {
        setError(
          isApiError(e) && e.fieldErrors[0] ? e.fieldErrors[0].message : (e as Error).message,
        );
        return false;
      }
    },
  };
}

export type LocationDraft = ReturnType<typeof useLocationDraft>;
