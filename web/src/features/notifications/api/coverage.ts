import type {
  ChannelAttachInput,
  ChannelAttachResult,
  ChannelCoverage,
  ChannelCreateInput,
  ChannelTestResult,
  MonitorDraft,
  MonitorTrialResult,
} from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { notificationKeys } from './keys';

/** Under the monitors' prefix: any monitor change refreshes it too. */
export const coverageKey = ['monitors', 'coverage'] as const;

/** The monitors no enabled channel alerts for. */
export const coverageQuery = () =>
  queryOptions({
    queryKey: coverageKey,
    queryFn: ({ signal }) => api<ChannelCoverage>('/monitors/coverage', { signal }),
    staleTime: 30_000,
  });

/** Links a channel to every monitor, or to every monitor with a tag. */
export function useAttachChannel(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ChannelAttachInput) =>
      api<ChannelAttachResult>(`/notification-channels/${id}/attach`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['monitors'] });
      void client.invalidateQueries({ queryKey: notificationKeys.channels });
    },
  });
}

/** "Send test" with the form's settings; on an edit, secrets left empty are the stored ones. */
export function useTestChannelSettings(id: number | null) {
  return useMutation({
    mutationFn: (input: ChannelCreateInput) =>
      api<ChannelTestResult>(
        id === null ? '/notification-channels/test' : `/notification-channels/${id}/test-settings`,
        { method: 'POST', body: input },
      ),
  });
}

/** The monitor form's "Test": one check of the unsaved settings, nothing stored. */
export function useTrialCheck(id: number | null) {
  return useMutation({
    mutationFn: (draft: MonitorDraft) =>
      api<MonitorTrialResult>(id === null ? '/monitors/test' : `/monitors/${id}/test`, {
        method: 'POST',
        body: draft,
      }),
  });
}
