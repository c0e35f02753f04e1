import type { Invitation, InvitationCreate, InvitationSent } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

const key = () => [...settingsKeys.users(), 'invitations'] as const;

export const invitationsQuery = () =>
  queryOptions({
    queryKey: key(),
    queryFn: ({ signal }) => api<{ items: Invitation[] }>('/invitations', { signal }),
  });

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: key() });
    void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
  };
}

export function useCreateInvitation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: InvitationCreate) =>
      api<InvitationSent>('/invitations', { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useResendInvitation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) =>
      api<InvitationSent>(`/invitations/${id}/resend`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useRevokeInvitation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/invitations/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
