import type { FastifyReply } from 'fastify';

/**
 * Lets other sites use this response: CORP `cross-origin` instead of the app's `same-origin`
 * (a badge in an `<img>`), and with `cors` any origin may read it by fetch() — never with
 * credentials, so only what everyone may see belongs here.
 */
export function shareCrossOrigin(reply: FastifyReply, { cors = false } = {}): void {
  void reply.header('cross-origin-resource-policy', 'cross-origin');
  if (cors) void reply.header('access-control-allow-origin', '*');
}
