import type { FastifyInstance } from 'fastify';
import { sendProblem } from '../../plugins/errors.js';

/** The cluster member's state for readiness; null where the process has not joined (ADR 21). */
export type ClusterReadiness = () => { state: string } | null;

const notReady: Record<string, string> = {
  registering: 'This process has not joined the cluster yet',
  fenced: 'This process fenced itself: its leases could not be renewed in time',
  stopped: 'This process is shutting down and has left the cluster',
};

/** Liveness and readiness for orchestrators; neither needs credentials nor reveals data. */
export function healthRoutes(
  app: FastifyInstance,
  ping: () => Promise<void>,
  cluster: ClusterReadiness = () => null,
): void {
  app.get('/healthz', { config: { access: 'public' }, logLevel: 'warn' }, async () => ({
    status: 'ok',
  }));
  app.get('/readyz', { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await ping();
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return sendProblem(reply, request, 'unavailable', 'The database is not reachable');
    }
    const member = cluster();
    if (member === null) return { status: 'ok', database: 'ok' };
    if (member.state !== 'ok') {
      return sendProblem(reply, request, 'unavailable', notReady[member.state] ?? member.state);
    }
    return { status: 'ok', database: 'ok', cluster: 'ok' };
  });
}
