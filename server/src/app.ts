import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from './lib/logger.js';
import type { EventHub } from './lib/event-hub.js';
import type { Metrics } from './lib/metrics.js';
import type { ServiceDeps } from './services/deps.js';
import { registerAuth } from './http/plugins/auth.js';
import { registerErrorHandler } from './http/plugins/errors.js';
import {
  clientErrorHandler,
  frameworkErrors,
  registerUrlLimit,
} from './http/plugins/protocol-errors.js';
import { registerSecurityHeaders } from './http/plugins/security-headers.js';
import { registerSpa } from './http/plugins/spa.js';
import { ApiRegistry, type Access } from './http/route.js';
import { authRoutes } from './http/routes/api/auth.js';
import { oidcRoutes } from './http/routes/api/oidc.js';
import { backupRoutes } from './http/routes/api/backup.js';
import { clusterRoutes } from './http/routes/api/cluster.js';
import { locationRoutes } from './http/routes/api/locations.js';
import { probeRoutes } from './http/routes/probe/v1.js';
import { settingsRoutes } from './http/routes/api/settings.js';
import { eventRoutes } from './http/routes/api/events.js';
import { importApiRoutes } from './http/routes/api/import.js';
import { incidentRoutes } from './http/routes/api/incidents.js';
import { userRoutes } from './http/routes/api/users.js';
import { maintenanceRoutes } from './http/routes/api/maintenance.js';
import { monitorRoutes } from './http/routes/api/monitors.js';
import { monitorBadgeRoutes } from './http/routes/api/monitor-badges.js';
import { statusPageApiRoutes } from './http/routes/api/status-pages.js';
import { configRoutes } from './http/routes/api/config.js';
import { configStatusRoutes } from './http/routes/api/config-status.js';
import { deliveryRoutes } from './http/routes/api/deliveries.js';
import { escalationRoutes } from './http/routes/api/escalation.js';
import { oncallRoutes } from './http/routes/api/oncall.js';
import { contactMethodRoutes } from './http/routes/api/contact-methods.js';
import { sloRoutes } from './http/routes/api/slos.js';
import { reportRoutes } from './http/routes/api/reports.js';
import { reportDeliveryRoutes } from './http/routes/api/report-delivery.js';
import { reportLinkRoutes } from './http/routes/public/report-links.js';
import { icalRoutes } from './http/routes/public/ical.js';
import { ackRoutes } from './http/routes/public/ack.js';
import { dependencyRoutes } from './http/routes/api/dependencies.js';
import { monitorLocationRoutes } from './http/routes/api/monitor-locations.js';
import { notificationChannelRoutes } from './http/routes/api/notification-channels.js';
import { alertCoverageRoutes } from './http/routes/api/alert-coverage.js';
import { openApiRoute } from './http/routes/api/openapi.js';
import { apiReferenceRoutes } from './http/routes/public/api-reference.js';
import { statusPageSubscriberRoutes } from './http/routes/api/status-page-subscribers.js';
import { healthRoutes, type ClusterReadiness } from './http/routes/public/health.js';
import { metricsRoute, type MetricsAccess } from './http/routes/public/metrics.js';
import { pushRoutes } from './http/routes/public/push.js';
import { subscribeRoutes } from './http/routes/public/subscribe.js';
import { badgeRoutes } from './http/routes/public/badges.js';
import { statusPageRoutes } from './http/routes/public/status-pages.js';
import { statusPagePreviewRoutes } from './http/routes/api/status-page-preview.js';
import { StatusSite } from './status-pages/site.js';

import { VERSION } from './version.js';

export { VERSION };

export interface AppDeps {
  services: ServiceDeps;
  hub: EventHub;
  logger: Logger;
  ping: () => Promise<void>;
  /** This process's cluster member, for /readyz; absent or null before it joined. */
  cluster?: ClusterReadiness;
  metrics: Metrics;
  /** Who may scrape /metrics (PAGEWATCH_METRICS_TOKEN, _BASIC_AUTH); open when absent. */
  metricsAccess?: MetricsAccess;
  webDist: string | null;
  bodyLimit?: number;
  trustProxy?: boolean;
  /** Server-Timing: auth;dur on authenticated answers (development only). */
  authTiming?: boolean;
  /** Heartbeat of event streams (tests shorten it). */
  eventPingMs?: number;
  /** Public status pages and their render cache; built from `services` when absent. */
  statusSite?: StatusSite;
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its access rule, for the permission matrix test and audits. */
    pagewatchRoutes: readonly RegisteredRoute[];
    /** Public status pages (their render cache is what benches and tests invalidate). */
    statusSite: StatusSite;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the HTTP app without listening, so tests drive it with inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    bodyLimit: deps.bodyLimit ?? 1024 * 1024,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    forceCloseConnections: 'idle',
    trustProxy: deps.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    // What the router and Node's parser refuse answers as problem+json like every other error.
    frameworkErrors,
    clientErrorHandler,
  });

  // Every route must say who may call it (SPEC §6); refusing here beats discovering an open one later.
  const routes: RegisteredRoute[] = [];
  app.decorate('pagewatchRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.config?.access)
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
    for (const method of [route.method].flat())
      routes.push({ method, url: route.url, access: route.config.access });
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  registerErrorHandler(app);
  registerUrlLimit(app);
  await registerSecurityHeaders(app);
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  const site = deps.statusSite ?? new StatusSite(deps.services, deps.hub);
  app.decorate('statusSite', site);
  app.addHook('onClose', async () => site.close());
  // Registers the custom-domain hook, which must run before authentication.
  statusPageRoutes(app, site);
  await registerAuth(app, deps.services, { authTiming: deps.authTiming ?? false });

  const api = new ApiRegistry();
  healthRoutes(app, deps.ping, deps.cluster);
  metricsRoute(app, deps.metrics, deps.metricsAccess);
  await pushRoutes(app, deps.services);
  // Its own context: the form-body parser applies to these routes only.
  await app.register((child) => subscribeRoutes(child, deps.services));
  await app.register((child) => ackRoutes(child, deps.services));
  await app.register((child) => reportLinkRoutes(child, deps.services));
  authRoutes(app, api, deps.services);
  oidcRoutes(app, api, deps.services);
  userRoutes(app, api, deps.services);
  monitorRoutes(app, api, deps.services);
  monitorBadgeRoutes(app, api, deps.services);
  incidentRoutes(app, api, deps.services);
  maintenanceRoutes(app, api, deps.services);
  statusPageSubscriberRoutes(app, api, deps.services);
  await statusPageApiRoutes(app, api, deps.services);
  notificationChannelRoutes(app, api, deps.services);
  alertCoverageRoutes(app, api, deps.services);
  dependencyRoutes(app, api, deps.services);
  monitorLocationRoutes(app, api, deps.services);
  deliveryRoutes(app, api, deps.services);
  escalationRoutes(app, api, deps.services);
  oncallRoutes(app, api, deps.services);
  contactMethodRoutes(app, api, deps.services);
  sloRoutes(app, api, deps.services);
  reportRoutes(app, api, deps.services);
  reportDeliveryRoutes(app, api, deps.services);
  icalRoutes(app, deps.services);
  clusterRoutes(app, api, deps.services);
  locationRoutes(app, api, deps.services);
  probeRoutes(app, deps.services);
  settingsRoutes(app, api, deps.services);
  backupRoutes(app, api, deps.services);
  configRoutes(app, api, deps.services);
  configStatusRoutes(app, api, deps.services);
  await importApiRoutes(app, api, deps.services);
  statusPagePreviewRoutes(app, api, site);
  badgeRoutes(app, site);
  eventRoutes(app, deps.hub, deps.services, deps.eventPingMs);
  openApiRoute(app, api, VERSION);
  apiReferenceRoutes(app);
  await registerSpa(app, deps.webDist);
  return app;
}
