import type { ImportReport, ImportSource } from '@pagewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, currentCsrfToken, toApiError } from '../../../lib/api';

/** Sources Settings → Import offers, each its API path and the type its files are sent as. */
const sources = {
  'uptime-kuma': { path: 'uptime-kuma', contentType: 'application/octet-stream' },
  gatus: { path: 'gatus', contentType: 'application/yaml' },
} as const satisfies Record<ImportSource, { path: string; contentType: string }>;

/** Uploads the file as the request body; `dryRun` answers the preview without writing. */
async function upload(source: ImportSource, file: File, dryRun: boolean): Promise<ImportReport> {
  const token = await currentCsrfToken();
  const { path, contentType } = sources[source];
  let response: Response;
  try {
    response = await fetch(`/api/v1/import/${path}${dryRun ? '?dryRun=true' : ''}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': contentType,
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

/** The preview and the import of a file from `source`; an import refreshes every list. */
export function useImport(source: ImportSource) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => upload(source, file, dryRun),
    onSuccess: async (report) => {
      if (!report.dryRun) await client.invalidateQueries();
    },
  });
}
