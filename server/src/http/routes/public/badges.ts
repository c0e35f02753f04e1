import { BadgeOptions, toFieldErrors, type BadgeWindow } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatusSite } from '../../../status-pages/site.js';
import { shareCrossOrigin } from '../../cross-origin.js';
import { sendCached } from '../../presenters/cached-body.js';
import { sendProblem } from '../../plugins/errors.js';

const FILE = /^(?:status|uptime-(24h|7d|30d|90d))\.svg$/;

// Shared caches (a README proxy, a CDN) may keep a badge as long as browsers do; the status
// moves on flips, uptime barely within five minutes.
const STATUS_CACHE = 'public, max-age=60, s-maxage=60, stale-while-revalidate=60';
const UPTIME_CACHE = 'public, max-age=300, s-maxage=300, stale-while-revalidate=300';

function nowhere(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(reply, request, 'not_found', 'No badge lives at this address');
}

/**
 * Embeddable badges (SPEC §2): a monitor's status or uptime over a window, only for monitors
 * a published status page shows (anything else is the same 404), labelled as that page names it,
 * in the shields.io styles. Other sites may load them (CORP cross-origin).
 */
export function badgeRoutes(app: FastifyInstance, site: StatusSite): void {
  app.route<{ Params: { monitorId: string; file: string } }>({
    method: ['GET', 'HEAD'],
    url: '/badge/:monitorId/:file',
    config: { access: 'public' },
    compress: false,
    logLevel: 'warn',
    handler: async (request, reply) => {
      shareCrossOrigin(reply);
      const { monitorId, file } = request.params;
      const match = FILE.exec(file);
      if (!/^[1-9]\d{0,15}$/.test(monitorId) || !match) return nowhere(request, reply);
      const options = BadgeOptions.safeParse(request.query);
      if (!options.success)
        return sendProblem(reply, request, 'validation_failed', 'Badge options are not valid', {
          errors: toFieldErrors(options.error.issues),
        });
      const window = (match[1] ?? null) as BadgeWindow | null;
      const body = await site.badge(Number(monitorId), window, options.data);
      if (!body) return nowhere(request, reply);
      return sendCached(request, reply, body, window ? UPTIME_CACHE : STATUS_CACHE);
    },
  });
}
