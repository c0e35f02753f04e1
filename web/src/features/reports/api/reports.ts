import type { Correction, CorrectionInput, CorrectionList, Report } from '@pagewatch/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** What the screen asks for: the reports API's query, as strings (ADR 55). */
export interface ReportParams {
  subject: 'monitor' | 'tag' | 'status_page';
  id: string;
  range: 'month' | 'quarter' | 'custom';
  period: string;
  from: string;
  to: string;
  timeZone: string;
}

/** The query string of a report: the JSON, CSV and PDF take the same one. */
export function reportSearch(p: ReportParams): string {
  const q = new URLSearchParams({ subject: p.subject, id: p.id, range: p.range });
  if (p.range === 'custom') {
    q.set('from', p.from);
    q.set('to', p.to);
  } else q.set('period', p.period);
  q.set('timeZone', p.timeZone);
  return q.toString();
}

/** Where the browser downloads the report as a file (the session cookie goes along). */
export const reportFileUrl = (p: ReportParams, format: 'csv' | 'pdf') =>
  `/api/v1/reports/${format}?${reportSearch(p)}`;

export const reportKeys = {
  all: ['reports'] as const,
  report: (search: string) => ['reports', search] as const,
  corrections: (monitorId: number) => ['corrections', monitorId] as const,
};

export const reportQuery = (p: ReportParams) => {
  const search = reportSearch(p);
  return queryOptions({
    queryKey: reportKeys.report(search),
    queryFn: ({ signal }) => api<Report>(`/reports?${search}`, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const correctionsQuery = (monitorId: number) =>
  queryOptions({
    queryKey: reportKeys.corrections(monitorId),
    queryFn: ({ signal }) => api<CorrectionList>(`/monitors/${monitorId}/corrections`, { signal }),
  });

/** Adding or removing a correction changes every figure: reports and stats are read again. */
function useRefresh(monitorId: number) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: reportKeys.corrections(monitorId) });
    void client.invalidateQueries({ queryKey: reportKeys.all });
    void client.invalidateQueries({ queryKey: ['monitors'] });
    void client.invalidateQueries({ queryKey: ['slos'] });
  };
}

export function useAddCorrection(monitorId: number) {
  const refresh = useRefresh(monitorId);
  return useMutation({
    mutationFn: (input: CorrectionInput) =>
      api<Correction>(`/monitors/${monitorId}/corrections`, { method: 'POST', body: input }),
    onSuccess: refresh,
  });
}

export function useRemoveCorrection(monitorId: number) {
  const refresh = useRefresh(monitorId);
  return useMutation({
    mutationFn: (id: number) =>
      api<void>(`/monitors/${monitorId}/corrections/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
