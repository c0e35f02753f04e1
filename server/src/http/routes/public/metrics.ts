import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../../lib/metrics.js';

/** Prometheus exposition of the process and engine metrics. */
export function metricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get(
    '/metrics',
    { config: { access: 'public' }, logLevel: 'warn' },
    async (_request, reply) => {
      void reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
