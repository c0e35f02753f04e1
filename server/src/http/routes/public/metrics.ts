import client from 'prom-client';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MetricsConfig } from '../../../config/config.js';
import type { Metrics } from '../../../lib/metrics.js';
import { sendProblem } from '../../plugins/errors.js';

export type MetricsAccess = Pick<MetricsConfig, 'token' | 'basicAuth'>;

const REALM = 'realm="pagewatch-metrics"';

/** Equal strings compare in the same time whatever their lengths or first difference. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether the Authorization header opens /metrics; always when no credential is configured. */
export function scrapeAllowed(header: string | undefined, access: MetricsAccess): boolean {
  if (access.token === null && access.basicAuth === null) return true;
  const match = /^(\S+) +(\S+)\s*$/.exec(header ?? '');
  if (!match) return false;
  const scheme = match[1]!.toLowerCase();
  const value = match[2]!;
  if (scheme === 'bearer' && access.token !== null) return sameSecret(value, access.token);
  if (scheme === 'basic' && access.basicAuth !== null) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return false;
    // Both halves are compared, so a right user name with a wrong password takes as long.
    const user = sameSecret(decoded.slice(0, colon), access.basicAuth.user);
    const password = sameSecret(decoded.slice(colon + 1), access.basicAuth.password);
    return user && password;
  }
  return false;
}

/** Prometheus exposition of the process, engine and per-monitor metrics. */
export function metricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  access: MetricsAccess = { token: null, basicAuth: null },
): void {
  const challenges = [
    ...(access.token !== null ? [`Bearer ${REALM}`] : []),
    ...(access.basicAuth !== null ? [`Basic ${REALM}, charset="UTF-8"`] : []),
  ];
  app.get(
    '/metrics',
    {
      // Public to the role check: its own credential (PAGEWATCH_METRICS_*) is checked here.
      config: { access: 'public' },
      logLevel: 'warn',
      // 20 MB at 10,000 monitors: gzip level 3 is four times faster than 6 for 7 % more bytes.
      compress: { encodings: ['gzip', 'deflate'], threshold: 1024, zlibOptions: { level: 3 } },
    },
    async (request, reply) => {
      if (!scrapeAllowed(request.headers.authorization, access)) {
        void reply.header('www-authenticate', challenges.length === 1 ? challenges[0] : challenges);
        return sendProblem(
          reply,
          request,
          'unauthenticated',
          'Scraping /metrics needs the bearer token or the user and password configured for it',
        );
      }
      void reply.type(metrics.registry.contentType);
      // A machine's scheduler workers have no port of their own: their counters, histograms
      // and gauges are added to the primary's (each family's aggregator says how).
      const own = metrics.workers
        ? await client.AggregatorRegistry.aggregate([
            await metrics.registry.getMetricsAsJSON(),
            ...(await metrics.workers()),
          ]).metrics()
        : await metrics.registry.metrics();
      const more = await Promise.all(metrics.sources.map((source) => source()));
      return more.length === 0 ? own : Buffer.concat([Buffer.from(own), ...more]);
    },
  );
}
