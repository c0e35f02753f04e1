import type { ImportReport } from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, currentCsrfToken, toApiError } from '../../../lib/api';

/** Uploads Kuma's file as the request body; `dryRun` answers the preview without writing. */
async function uploadKuma(file: File, dryRun: boolean): Promise<ImportReport> {
  const token = await currentCsrfToken();
  let response: Response;
  try {
    response = await fetch(`/api/v1/import/uptime-kuma${dryRun ? '?dryRun=true' : ''}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/octet-stream',
        ...(token ? { 'x-csrf-token': token } : {}),
      },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError({ kind: 'network', status: 0, title: 'Cannot reach the Pagewatch server' });
  }
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as ImportReport;
}

/** The preview and the import of an Uptime Kuma file; an import refreshes every list. */
export function useKumaImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => uploadKuma(file, dryRun),
    onSuccess: async (report) => {
      if (!report.dryRun) await client.invalidateQueries();
    },
  });
}
