import type {
  IncidentCreateDraft,
  IncidentDetail,
  IncidentEdit,
  IncidentUpdateDraft,
} from '@pagewatch/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { incidentKeys } from './keys';

function store(client: QueryClient, incident: IncidentDetail) {
  client.setQueryData(incidentKeys.detail(incident.id), incident);
  void client.invalidateQueries({ queryKey: incidentKeys.all });
}

export function useDeclareIncident() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentCreateDraft) =>
      api<IncidentDetail>('/incidents', { method: 'POST', body: input }),
    onSuccess: (incident) => store(client, incident),
  });
}

export function usePostIncidentUpdate(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentUpdateDraft) =>
      api<IncidentDetail>(`/incidents/${id}/updates`, { method: 'POST', body: input }),
    onSuccess: (incident) => store(client, incident),
  });
}

export function useEditIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentEdit) =>
      api<IncidentDetail>(`/incidents/${id}`, { method: 'PATCH', body: input }),
    onSuccess: (incident) => store(client, incident),
  });
}

export function useDeleteIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/incidents/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      client.removeQueries({ queryKey: incidentKeys.detail(id) });
      void client.invalidateQueries({ queryKey: incidentKeys.all });
    },
  });
}
