import type { Escalation, EscalationList } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { incidentKeys } from '../../incidents/api/keys';

export const escalationKeys = {
  all: ['escalations'] as const,
  forMonitor: (monitorId: number) => ['escalations', 'monitor', monitorId] as const,
};

/** A monitor's escalations, newest first (ADR 39). */
export const monitorEscalationsQuery = (monitorId: number) =>
  queryOptions({
    queryKey: escalationKeys.forMonitor(monitorId),
    queryFn: ({ signal }) => api<EscalationList>(`/escalations?monitorId=${monitorId}`, { signal }),
    // Steps fire in the background: look again now and then while the page is open.
    refetchInterval: 15_000,
  });

export function useAcknowledge(monitorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api<Escalation>(`/escalations/${id}/acknowledge`, { method: 'POST' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: escalationKeys.forMonitor(monitorId) });
      // The acknowledgement is on the incident's timeline.
      void client.invalidateQueries({ queryKey: incidentKeys.all });
    },
  });
}
