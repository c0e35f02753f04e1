import type { StatusPage, StatusPageInput, StatusPageList } from '@pagewatch/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, currentCsrfToken, toApiError } from '../../../lib/api';
import { statusPageKeys } from './keys';

export const statusPageListQuery = () =>
  queryOptions({
    queryKey: statusPageKeys.list(),
    queryFn: ({ signal }) => api<StatusPageList>('/status-pages', { signal }),
  });

export const statusPageQuery = (id: number) =>
  queryOptions({
    queryKey: statusPageKeys.detail(id),
    queryFn: ({ signal }) => api<StatusPage>(`/status-pages/${id}`, { signal }),
  });

/** A raw-body or raw-answer call: the logo's bytes, the preview's HTML. */
async function raw(
  path: string,
  init: { method: 'PUT' | 'POST'; body: BodyInit; type: string; signal?: AbortSignal },
): Promise<Response> {
  const token = await currentCsrfToken();
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method: init.method,
      headers: { 'content-type': init.type, ...(token ? { 'x-csrf-token': token } : {}) },
      body: init.body,
      credentials: 'same-origin',
      signal: init.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ kind: 'network', status: 0, title: 'Cannot reach the Pagewatch server' });
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** The draft rendered by the server as the public would see it (HTML). */
export async function fetchPreview(input: StatusPageInput, signal: AbortSignal): Promise<string> {
  const response = await raw('/status-pages/preview', {
    method: 'POST',
    body: JSON.stringify(input),
    type: 'application/json',
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return response.text();
  const body = (await response.json()) as { html?: unknown };
  return typeof body.html === 'string' ? body.html : '';
}

export type LogoChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; file: File };

/** Where the logo change failed after the page itself saved. */
export class LogoError extends Error {
  constructor(
    readonly page: StatusPage,
    override readonly cause: unknown,
  ) {
    super('The page was saved but its logo was not');
  }
}

async function applyLogo(page: StatusPage, logo: LogoChange): Promise<StatusPage> {
  try {
    if (logo.kind === 'remove' && page.logoUrl)
      return await api<StatusPage>(`/status-pages/${page.id}/logo`, { method: 'DELETE' });
    if (logo.kind === 'upload') {
      const response = await raw(`/status-pages/${page.id}/logo`, {
        method: 'PUT',
        body: logo.file,
        type: logo.file.type,
      });
      return (await response.json()) as StatusPage;
    }
  } catch (error) {
    throw new LogoError(page, error);
  }
  return page;
}

/** Saves the page, then its logo; both caches refresh. */
export function useSaveStatusPage(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, logo }: { input: StatusPageInput; logo: LogoChange }) => {
      const page =
        id === null
          ? await api<StatusPage>('/status-pages', { method: 'POST', body: input })
          : await api<StatusPage>(`/status-pages/${id}`, { method: 'PUT', body: input });
      return applyLogo(page, logo);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: statusPageKeys.all }),
    onSuccess: (page) => client.setQueryData(statusPageKeys.detail(page.id), page),
  });
}

export function useDeleteStatusPage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/status-pages/${id}`, { method: 'DELETE' }),
    onSuccess: (_r, id) => {
      client.removeQueries({ queryKey: statusPageKeys.detail(id) });
      void client.invalidateQueries({ queryKey: statusPageKeys.list() });
    },
  });
}

export interface EmailChannel {
  id: number;
  name: string;
}

/** Email channels for subscriber mail; null when this server has no channel API for us. */
export const emailChannelsQuery = () =>
  queryOptions({
    queryKey: ['notification-channels', 'email'] as const,
    queryFn: async ({ signal }): Promise<EmailChannel[] | null> => {
      try {
        const body = await api<{ items?: { id: number; name: string; kind: string }[] }>(
          '/notification-channels',
          { signal },
        );
        return (body.items ?? [])
          .filter((c) => c.kind === 'email')
          .map((c) => ({ id: c.id, name: c.name }));
      } catch (error) {
        if (error instanceof ApiError && (error.kind === 'not_found' || error.kind === 'forbidden'))
          return null;
        throw error;
      }
    },
    retry: false,
  });
