import type { FastifyInstance, FastifyReply } from 'fastify';
import { RateLimiter } from '../../../lib/rate-limit.js';
import { reportCsv, reportFileName } from '../../../reports/csv.js';
import { linkGonePage, reportPage, reportPageCsp } from '../../../reports/page.js';
import { reportPdf } from '../../../reports/pdf.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { buildReport } from '../../../services/reports/build.js';
import { linkRequest, openLink, REPORT_LINK_PATH } from '../../../services/reports/links.js';

interface TokenParams {
  token: string;
}

const headers = (reply: FastifyReply) =>
  reply
    .header('content-security-policy', reportPageCsp)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex');

/** Unknown, tampered, revoked and expired links get the same 404 page, naming nothing. */
const gone = (reply: FastifyReply) =>
  headers(reply).code(404).type('text/html; charset=utf-8').send(linkGonePage());

/**
 * Customer links to a report (ADR 65): the random token in the path is the credential (only
 * its hash is stored). The page, the PDF and the CSV of the same report; no session needed.
 */
export async function reportLinkRoutes(app: FastifyInstance, deps: ServiceDeps): Promise<void> {
  // Tokens are 256 random bits; the limit keeps guessing, and report building, cheap.
  const perIp = new RateLimiter({ burst: 20, refillMs: 3_000 }, deps.clock);

  const open = async (token: string, reply: FastifyReply, ip: string) => {
    if (perIp.take(ip) > 0) {
      headers(reply)
        .code(429)
        .header('retry-after', '10')
        .type('text/plain')
        .send('Too many requests');
      return null;
    }
    const link = await openLink(deps, token);
    if (!link) {
      gone(reply);
      return null;
    }
    const report = await buildReport(deps, linkRequest(link, deps.clock.now())).catch(() => null);
    if (!report) {
      // The subject was deleted since: nothing to show, and nothing said about why.
      gone(reply);
      return null;
    }
    await deps.repos.reportDelivery.linkViewed(Number(link.id), deps.clock.now());
    return report;
  };

  app.get<{ Params: TokenParams }>(
    `${REPORT_LINK_PATH}:token`,
    { config: { access: 'public' } },
    async (request, reply) => {
      const report = await open(request.params.token, reply, request.ip);
      if (!report) return reply;
      const self = `${REPORT_LINK_PATH}${encodeURIComponent(request.params.token)}`;
      return headers(reply).type('text/html; charset=utf-8').send(reportPage(report, self));
    },
  );

  app.get<{ Params: TokenParams }>(
    `${REPORT_LINK_PATH}:token/report.pdf`,
    { config: { access: 'public' } },
    async (request, reply) => {
      const report = await open(request.params.token, reply, request.ip);
      if (!report) return reply;
      return headers(reply)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(report, 'pdf')}"`)
        .send(await reportPdf(report));
    },
  );

  app.get<{ Params: TokenParams }>(
    `${REPORT_LINK_PATH}:token/report.csv`,
    { config: { access: 'public' } },
    async (request, reply) => {
      const report = await open(request.params.token, reply, request.ip);
      if (!report) return reply;
      return headers(reply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${reportFileName(report, 'csv')}"`)
        .send(reportCsv(report));
    },
  );
}
