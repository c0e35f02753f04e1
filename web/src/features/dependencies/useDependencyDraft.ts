import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../lib/api';
import { dependenciesQuery, groupingOf, saveDependencies, type GroupingDraft } from './api';

/**
 * The monitor form's parents and grouping (ADR 41, 42): their own resource, saved right after
 * the monitor. `id` is the monitor edited (null when creating); `from` the one cloned.
 */
export function useDependencyDraft(id: number | null, from: number | null = id) {
  const client = useQueryClient();
  const stored = useQuery({ ...dependenciesQuery(from ?? 0), enabled: from !== null });
  const [parents, setParents] = useState<string | null>(null);
  const [grouping, setGrouping] = useState<GroupingDraft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const parentValue = parents ?? stored.data?.parents.map((p) => p.id).join(',') ?? '';
  const groupingValue = grouping ?? groupingOf(stored.data?.grouping);
  const changed = parents !== null || grouping !== null || (from !== id && stored.data != null);
  const windowS = Number(groupingValue.windowS);
  const windowError =
    Number.isInteger(windowS) && windowS >= 1 && windowS <= 3600
      ? null
      : 'A whole number of seconds from 1 to 3,600';
  return {
    parents: parentValue,
    setParents,
    grouping: groupingValue,
    setGrouping,
    error,
    windowError,
    /** Saves for the monitor just written; false (with `error` set) when refused. */
    async save(monitorId: number): Promise<boolean> {
      if (!changed) return true;
      if (windowError) {
        setError(windowError);
        return false;
      }
      try {
        await saveDependencies(monitorId, {
          parentIds: parentValue.split(',').filter(Boolean).map(Number),
          grouping: { tag: groupingValue.tag.trim() || null, windowS },
        });
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

export type DependencyDraft = ReturnType<typeof useDependencyDraft>;
