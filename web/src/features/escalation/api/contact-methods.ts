import type {
  ContactMethod,
  ContactMethodCreated,
  ContactMethodInput,
  ContactMethodList,
  UserQuietHours,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const contactKeys = {
  mine: ['contact-methods', 'mine'] as const,
  quiet: ['quiet-hours', 'mine'] as const,
};

export const myContactMethodsQuery = () =>
  queryOptions({
    queryKey: contactKeys.mine,
    queryFn: ({ signal }) => api<ContactMethodList>('/me/contact-methods', { signal }),
  });

export const myQuietHoursQuery = () =>
  queryOptions({
    queryKey: contactKeys.quiet,
    queryFn: ({ signal }) => api<UserQuietHours>('/me/quiet-hours', { signal }),
  });

function useRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: contactKeys.mine });
}

export function useAddContactMethod() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: ContactMethodInput) =>
      api<ContactMethodCreated>('/me/contact-methods', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useVerifyContactMethod() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, code }: { id: number; code: string }) =>
      api<ContactMethod>(`/me/contact-methods/${id}/verify`, { method: 'POST', body: { code } }),
    onSuccess: refresh,
  });
}

export function useResendCode() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      api<ContactMethodCreated>(`/me/contact-methods/${id}/send-code`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useRemoveContactMethod() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/me/contact-methods/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useSaveQuietHours() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UserQuietHours) =>
      api<UserQuietHours>('/me/quiet-hours', { method: 'PUT', body: input }),
    onSuccess: (data) => client.setQueryData(contactKeys.quiet, data),
  });
}
