import type {
  OnCallNow,
  OnCallOverrideInput,
  OnCallSchedule,
  OnCallScheduleInput,
  OnCallTimeline,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const oncallKeys = {
  all: ['oncall'] as const,
  now: (id: number) => ['oncall', 'now', id] as const,
  timeline: (id: number, days: number) => ['oncall', 'timeline', id, days] as const,
  myFeed: ['oncall', 'my-feed'] as const,
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

/** Each layer and the result over the next days. */
export const timelineQuery = (id: number, days = 14) =>
  queryOptions({
    queryKey: oncallKeys.timeline(id, days),
    queryFn: ({ signal }) =>
      api<OnCallTimeline>(`/oncall-schedules/${id}/timeline?days=${days}`, { signal }),
    refetchInterval: 300_000,
  });

/** The secret calendar URL of the signed-in person's own shifts. */
export const myFeedQuery = () =>
  queryOptions({
    queryKey: oncallKeys.myFeed,
    queryFn: ({ signal }) => api<{ url: string }>('/oncall-schedules/my-feed', { signal }),
    staleTime: Infinity,
  });

/** Everything under `oncall` (list, now, timelines) is read again after a change. */
function useRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: oncallKeys.all });
}

/** Creates a schedule, or replaces one when `id` is given (overrides stay). */
export function useSaveSchedule() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: OnCallScheduleInput }) =>
      id === null
        ? api<OnCallSchedule>('/oncall-schedules', { method: 'POST', body: input })
        : api<OnCallSchedule>(`/oncall-schedules/${id}`, { method: 'PUT', body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteSchedule() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/oncall-schedules/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** Adds overrides one after the other (a swap is two); stops at the first refusal. */
export function useAddOverrides() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, overrides }: { id: number; overrides: OnCallOverrideInput[] }) => {
      let last: OnCallSchedule | null = null;
      for (const body of overrides)
        last = await api<OnCallSchedule>(`/oncall-schedules/${id}/overrides`, {
          method: 'POST',
          body,
        });
      return last;
    },
    onSettled: refresh,
  });
}

export function useRemoveOverride() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, overrideId }: { id: number; overrideId: number }) =>
      api<OnCallSchedule>(`/oncall-schedules/${id}/overrides/${overrideId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
