import type {
  EscalationPolicy,
  EscalationPolicyInput,
  EscalationPolicyList,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const policyKeys = { all: ['escalation-policies'] as const };

export const policyListQuery = () =>
  queryOptions({
    queryKey: policyKeys.all,
    queryFn: ({ signal }) => api<EscalationPolicyList>('/escalation-policies', { signal }),
  });

export function useSavePolicy(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: EscalationPolicyInput) =>
      api<EscalationPolicy>(id === null ? '/escalation-policies' : `/escalation-policies/${id}`, {
        method: id === null ? 'POST' : 'PUT',
        body: input,
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: policyKeys.all }),
  });
}

export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/escalation-policies/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: policyKeys.all }),
  });
}
