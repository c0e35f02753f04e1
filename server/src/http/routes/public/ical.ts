import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceDeps } from '../../../services/deps.js';
import { scheduleFeed, userFeed } from '../../../services/oncall/schedules.js';

interface FeedParams {
  id: string;
  file: string;
}

function send(reply: FastifyReply, ics: string | null) {
  if (ics === null) return reply.code(404).type('text/plain').send('Not found');
  return reply
    .header('cache-control', 'private, max-age=300')
    .type('text/calendar; charset=utf-8')
    .send(ics);
}

const tokenOf = (file: string) => (file.endsWith('.ics') ? file.slice(0, -4) : file);

/**
 * iCalendar feeds of on-call shifts (ADR 39). Calendar apps cannot sign in: the secret token in
 * the URL is the credential, and a wrong one answers 404 like an unknown feed.
 */
export function icalRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.get<{ Params: FeedParams }>(
    '/ical/schedules/:id/:file',
    { config: { access: 'public' } },
    async (request, reply) =>
      send(
        reply,
        await scheduleFeed(deps, Number(request.params.id) || 0, tokenOf(request.params.file)),
      ),
  );
  app.get<{ Params: FeedParams }>(
    '/ical/users/:id/:file',
    { config: { access: 'public' } },
    async (request, reply) =>
      send(
        reply,
        await userFeed(deps, Number(request.params.id) || 0, tokenOf(request.params.file)),
      ),
  );
}
