import type {
  Person,
  ReportLinkCreated,
  ReportLinkInput,
  ReportLinkList,
  ReportSchedule,
  ReportScheduleInput,
  ReportScheduleList,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Monthly report emails and customer links (ADR 65). */
export const deliveryKeys = {
  schedules: ['reports', 'schedules'] as const,
  links: ['reports', 'links'] as const,
};

export const scheduleListQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: deliveryKeys.schedules,
    queryFn: ({ signal }) => api<ReportScheduleList>('/reports/schedules', { signal }),
    enabled,
  });

/** Active accounts an editor may pick as recipients (names and addresses only). */
export const peopleQuery = () =>
  queryOptions({
    queryKey: ['people'] as const,
    queryFn: ({ signal }) => api<{ items: Person[] }>('/people', { signal }),
  });

export const linkListQuery = () =>
  queryOptions({
    queryKey: deliveryKeys.links,
    queryFn: ({ signal }) => api<ReportLinkList>('/reports/links', { signal }),
  });

/** Creates a schedule (`id` null) or replaces one's settings, pausing it with `enabled: false`. */
export function useSaveSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ReportScheduleInput }) =>
      id === null
        ? api<ReportSchedule>('/reports/schedules', { method: 'POST', body: input })
        : api<ReportSchedule>(`/reports/schedules/${id}`, { method: 'PUT', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: deliveryKeys.schedules }),
  });
}

export function useDeleteSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/reports/schedules/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: deliveryKeys.schedules }),
  });
}

export function useCreateLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportLinkInput) =>
      api<ReportLinkCreated>('/reports/links', { method: 'POST', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: deliveryKeys.links }),
  });
}

export function useRevokeLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/reports/links/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: deliveryKeys.links }),
  });
}
