import type { FastifyInstance, FastifyReply } from 'fastify';
import { RateLimiter } from '../../../lib/rate-limit.js';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  acknowledgeByLink,
  describeAckLink,
  type LinkCheck,
} from '../../../services/escalation/acknowledge.js';
import { actionPage, messagePage, subscribeCsp } from '../../../status-pages/subscribe/view.js';
import { anonymousContext } from '../../../domain/actor.js';

interface TokenParams {
  token: string;
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-security-policy', subscribeCsp)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The page for a link that does nothing (any more), and why. */
function notActing(reply: FastifyReply, seen: LinkCheck) {
  if (seen.state === 'expired')
    return send(
      reply,
      410,
      messagePage('This link has expired', ['Acknowledge in Pagewatch instead.']),
    );
  if (seen.state === 'done') {
    const e = seen.escalation;
    const line = e?.acknowledgement
      ? `It was acknowledged by ${e.acknowledgement.by} at ${e.acknowledgement.at}.`
      : 'The monitor recovered; there is nothing left to acknowledge.';
    return send(reply, 200, messagePage('Nothing to acknowledge', [line]));
  }
  return send(
    reply,
    404,
    messagePage('Link not valid', ['This acknowledgement link is not valid.']),
  );
}

/**
 * One-click acknowledgement from a message (ADR 39). The GET only shows a confirm page: mail
 * scanners and link previews fetch links, and must acknowledge nothing. The POST acts.
 */
export async function ackRoutes(app: FastifyInstance, deps: ServiceDeps): Promise<void> {
  // Links are unguessable (HMAC); the limit only keeps a guessing loop from costing much.
  const perIp = new RateLimiter({ burst: 30, refillMs: 2_000 }, deps.clock);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );

  app.get<{ Params: TokenParams }>(
    '/ack/:token',
    { config: { access: 'public' } },
    async (request, reply) => {
      if (perIp.take(request.ip) > 0)
        return send(reply, 429, messagePage('Too many requests', ['Try again in a minute.']));
      const seen = await describeAckLink(deps, request.params.token);
      if (seen.state !== 'valid') return notActing(reply, seen);
      const what = seen.monitorName ? `“${seen.monitorName}” is down.` : 'A monitor is down.';
      return send(
        reply,
        200,
        actionPage(
          'Acknowledge this alert?',
          `${what} Acknowledging stops the escalation: nobody further is notified for this outage.`,
          `/ack/${encodeURIComponent(request.params.token)}`,
          'Acknowledge',
        ),
      );
    },
  );

  app.post<{ Params: TokenParams }>(
    '/ack/:token',
    { config: { access: 'public' }, bodyLimit: 1024 },
    async (request, reply) => {
      if (perIp.take(request.ip) > 0)
        return send(reply, 429, messagePage('Too many requests', ['Try again in a minute.']));
      const ctx = anonymousContext(request.ip, request.headers['user-agent'] ?? null);
      const seen = await acknowledgeByLink(deps, ctx, request.params.token);
      if (seen.state !== 'valid') return notActing(reply, seen);
      return send(
        reply,
        200,
        messagePage('Acknowledged', ['The escalation stopped. The incident timeline says so.']),
      );
    },
  );
}
