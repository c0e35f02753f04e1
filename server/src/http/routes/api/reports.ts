import {
  CorrectionInput,
  CorrectionList,
  CorrectionParams,
  Correction,
  MonitorIdParams,
  Report,
  ReportQuery,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { reportCsv, reportFileName } from '../../../reports/csv.js';
import { reportPdf } from '../../../reports/pdf.js';
import {
  addCorrection,
  listCorrections,
  removeCorrection,
} from '../../../services/availability/corrections.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { buildReport } from '../../../services/reports/build.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'reports';
const base = '/api/v1/reports';

const reportDescription =
  'Availability of a monitor, every monitor with a tag, or a status page over a month ' +
  '(`range=month&period=2026-03`), a quarter (`range=quarter&period=2026-Q1`) or dates ' +
  '(`range=custom&from=…&to=…`, inclusive) in `timeZone`. Maintenance windows and corrections ' +
  'are left out, as everywhere Pagewatch shows uptime (docs/reports.md).';

/** Reports (ADR 54/55): JSON, CSV and PDF of the same figures; corrections of a monitor. */
export function reportRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: base,
    operationId: 'getReport',
    access: 'viewer',
    tag,
    summary: 'An availability report: uptime, downtime, incidents with MTTR/MTBF, latency',
    description: reportDescription,
    query: ReportQuery,
    responses: { 200: Report },
    handler: async ({ query }) => buildReport(deps, query),
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/csv`,
    operationId: 'getReportCsv',
    access: 'viewer',
    tag,
    summary: 'The report as CSV: a row per monitor and period, then its total',
    description: `${reportDescription} Columns: docs/reports.md.`,
    query: ReportQuery,
    produces: 'text/csv',
    responses: { 200: null },
    handler: async ({ query, reply }) => {
      const r = await buildReport(deps, query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${reportFileName(r, 'csv')}"`)
        .send(reportCsv(r));
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/pdf`,
    operationId: 'getReportPdf',
    access: 'viewer',
    tag,
    summary: 'The report as a PDF document for a customer',
    description: reportDescription,
    query: ReportQuery,
    produces: 'application/pdf',
    responses: { 200: null },
    handler: async ({ query, reply }) => {
      const r = await buildReport(deps, query);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(r, 'pdf')}"`)
        .send(await reportPdf(r));
    },
  });

  const corrections = '/api/v1/monitors/:id/corrections';
  api.add(app, {
    method: 'GET',
    url: corrections,
    operationId: 'listCorrections',
    access: 'viewer',
    tag: 'monitors',
    summary: "A monitor's corrections: periods left out of its availability, newest first",
    params: MonitorIdParams,
    responses: { 200: CorrectionList },
    handler: async ({ params }) => ({ items: await listCorrections(deps, params.id) }),
  });

  api.add(app, {
    method: 'POST',
    url: corrections,
    operationId: 'addCorrection',
    access: 'editor',
    tag: 'monitors',
    summary: 'Leave a period out of a monitor’s availability (a false positive, a planned test)',
    params: MonitorIdParams,
    body: CorrectionInput,
    responses: { 201: Correction },
    handler: async ({ params, body, ctx }) => addCorrection(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${corrections}/:correctionId`,
    operationId: 'removeCorrection',
    access: 'editor',
    tag: 'monitors',
    summary: 'Remove a correction: the period counts again',
    params: CorrectionParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeCorrection(deps, ctx, params.id, params.correctionId),
  });
}
