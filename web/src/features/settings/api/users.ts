import type { User, UserCreate, UserUpdate } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { settingsKeys } from './keys';

export const usersQuery = () =>
  queryOptions({
    queryKey: settingsKeys.users(),
    queryFn: ({ signal }) => api<{ items: User[] }>('/users', { signal }),
  });

function useInvalidateAudit() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: settingsKeys.auditAll() });
}

export function useCreateUser() {
  const client = useQueryClient();
  const audit = useInvalidateAudit();
  return useMutation({
    mutationFn: (input: UserCreate) => api<User>('/users', { method: 'POST', body: input }),
    onSuccess: (user) => {
      client.setQueryData<{ items: User[] }>(settingsKeys.users(), (list) =>
        list ? { items: [...list.items, user] } : list,
      );
      void client.invalidateQueries({ queryKey: settingsKeys.users() });
      audit();
    },
  });
}

export function useUpdateUser(id: number) {
  const client = useQueryClient();
  const audit = useInvalidateAudit();
  return useMutation({
    mutationFn: (change: UserUpdate) =>
      api<User>(`/users/${id}`, { method: 'PATCH', body: change }),
    onSuccess: (user) => {
      client.setQueryData<{ items: User[] }>(settingsKeys.users(), (list) =>
        list ? { items: list.items.map((u) => (u.id === user.id ? user : u)) } : list,
      );
      audit();
    },
  });
}

export function useResetPassword(id: number) {
  const audit = useInvalidateAudit();
  return useMutation({
    mutationFn: (password: string) =>
      api<void>(`/users/${id}/password`, { method: 'POST', body: { password } }),
    onSuccess: audit,
  });
}

/** Deletes an account; its audit lines stay (ADR 34). */
export function useDeleteUser(id: number) {
  const client = useQueryClient();
  const audit = useInvalidateAudit();
  return useMutation({
    mutationFn: () => api<void>(`/users/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      client.setQueryData<{ items: User[] }>(settingsKeys.users(), (list) =>
        list ? { items: list.items.filter((u) => u.id !== id) } : list,
      );
      audit();
    },
  });
}
