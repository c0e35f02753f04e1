import type { OnCallNow, OnCallSchedule, OnCallScheduleInput } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const oncallKeys = {
  all: ['oncall'] as const,
  now: (id: number) => ['oncall', 'now', id] as const,
};

export const scheduleListQuery = () =>
  queryOptions({
    queryKey: oncallKeys.all,
    queryFn: ({ signal }) => api<{ items: OnCallSchedule[] }>('/oncall-schedules', { signal }),
  });

/** Who is on call now and next; looked at again each minute while shown. */
export const onCallNowQuery = (id: number) =>
  queryOptions({
    queryKey: oncallKeys.now(id),
    queryFn: ({ signal }) => api<OnCallNow>(`/oncall-schedules/${id}/now`, { signal }),
    refetchInterval: 60_000,
  });

export function useCreateSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OnCallScheduleInput) =>
      api<OnCallSchedule>('/oncall-schedules', { method: 'POST', body: input }),
    onSuccess: () => void client.invalidateQueries({ queryKey: oncallKeys.all }),
  });
}
