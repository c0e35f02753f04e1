import type { BackupSettings, BackupStatus } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

const backupKey = ['backup', 'status'] as const;

/** Where the browser downloads a backup: a plain link, streamed by the server to the disk. */
export const BACKUP_DOWNLOAD_URL = '/api/v1/backup';

export const backupStatusQuery = () =>
  queryOptions({
    queryKey: backupKey,
    queryFn: ({ signal }) => api<BackupStatus>('/backup/status', { signal }),
    // A download or a scheduled run elsewhere shows up without a reload.
    refetchInterval: 15_000,
  });

export function useSaveBackupSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: BackupSettings) =>
      api<BackupStatus>('/backup/schedule', { method: 'PUT', body: settings }),
    onSuccess: (status) => client.setQueryData(backupKey, status),
  });
}

/** The status again a little after a download started: its run is recorded when it ends. */
export function useRefreshBackupStatus() {
  const client = useQueryClient();
  return () => {
    for (const ms of [2_000, 8_000])
      setTimeout(() => void client.invalidateQueries({ queryKey: backupKey }), ms);
  };
}
