import type { IncidentBulkResult } from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { incidentKeys } from './keys';

/** Resolves many incidents with one closing update; says which were already resolved or gone. */
export function useResolveIncidents() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: number[]; message: string; public: boolean }) =>
      api<IncidentBulkResult>('/incidents/bulk-resolve', { method: 'POST', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: incidentKeys.all }),
  });
}
