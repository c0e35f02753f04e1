import type {
  EscalationPolicy,
  EscalationPolicyInput,
  EscalationPolicyList,
  TagPolicy,
  TagPolicyList,
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

export const tagPolicyKeys = { all: ['escalation-tag-policies'] as const };

/** Which policy each tag uses (ADR 61), in the order the server sorts tags. */
export const tagPoliciesQuery = () =>
  queryOptions({
    queryKey: tagPolicyKeys.all,
    queryFn: ({ signal }) => api<TagPolicyList>('/escalation-tag-policies', { signal }),
  });

/** Replaces the whole list (the API takes it at once); attach and detach are edits of it. */
export function useSaveTagPolicies() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (items: TagPolicy[]) =>
      api<TagPolicyList>('/escalation-tag-policies', { method: 'PUT', body: { items } }),
    onSuccess: (list) => client.setQueryData(tagPolicyKeys.all, list),
  });
}
