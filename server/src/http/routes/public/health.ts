import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../../plugins/errors.js';

/** Liveness and readiness for orchestrators; neither needs credentials nor reveals data. */
export function healthRoutes(app: FastifyInstance, ping: () => Promise<void>): void {
  app.get('/healthz', { config: { access: 'public' }, logLevel: 'warn' }, async () => ({
    status: 'ok',
  }));
  app.get('/readyz', { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await ping();
      return { status: 'ok', database: 'ok' };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return sendProblem(reply, request, 'unavailable', 'The database is not reachable');
    }
  });
}
