import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badgeWindows, type BadgeWindow } from '../../../status-pages/badges.js';
import type { StatusSite } from '../../../status-pages/site.js';
import { sendCached } from '../../presenters/cached-body.js';
import { sendProblem } from '../../plugins/errors.js';

const FILE = /^(?:status|uptime-(24h|7d|30d|90d))\.svg$/;

function nowhere(request: FastifyRequest, reply: FastifyReply) {
  return sendProblem(reply, request, 'not_found', 'No badge lives at this address');
}

/**
 * Embeddable badges (SPEC §2): a monitor's status or uptime over a window, only for monitors
 * a published status page shows (anything else is the same 404), labelled as that page names it.
 */
export function badgeRoutes(app: FastifyInstance, site: StatusSite): void {
  app.route<{ Params: { monitorId: string; file: string } }>({
    method: ['GET', 'HEAD'],
    url: '/badge/:monitorId/:file',
    config: { access: 'public' },
    compress: false,
    logLevel: 'warn',
    handler: async (request, reply) => {
      const { monitorId, file } = request.params;
      const match = FILE.exec(file);
      if (!/^[1-9]\d{0,15}$/.test(monitorId) || !match) return nowhere(request, reply);
      const window = (match[1] ?? null) as BadgeWindow | null;
      if (window !== null && !badgeWindows.includes(window)) return nowhere(request, reply);
      const body = await site.badge(Number(monitorId), window);
      if (!body) return nowhere(request, reply);
      return sendCached(request, reply, body, `public, max-age=${window ? 300 : 60}`);
    },
  });
}
