import { pushLimits, PushPingQuery, PushPingReply, PushToken } from '@pagewatch/contract';
import { PUSH_BODY_LIMIT, PUSH_RATE } from '../routes/public/push.js';
import { problemRef, securityFor } from './components.js';
import {
  documented,
  header,
  parametersOf,
  pathParam,
  text,
  type DocumentedRoute,
} from './documented.js';
import { probeProtocolRoutes } from './probe-routes.js';
import type { SchemaComponents } from './schemas.js';

const pushDescription = [
  'The heartbeat of a cron job or script (SPEC §2). The token in the URL is the credential: no',
  'session, no CSRF, and a wrong token is a plain 404 that never counts as a failed sign-in.',
  `Each token may send ${PUSH_RATE.burst} pings at once, then one every ${PUSH_RATE.refillMs / 1000} s`,
  '(429 with `Retry-After`). The answer is `OK` as text, or JSON when `Accept` names',
  '`application/json`. Pings to a paused monitor are refused with 409.',
].join(' ');

function pushRoutes(s: SchemaComponents): DocumentedRoute[] {
  const token = pathParam(
    'token',
    "The push monitor's token (Monitors → the monitor → Push URL).",
    s.inline(PushToken),
  );
  const signal = pathParam(
    'signal',
    '`start` marks a run as started (its duration is then measured); `fail` reports down; an exit status reports up when 0 and down otherwise.',
    {
      type: 'string',
      pattern: '^(?:start|fail|[0-9]{1,3})$',
      examples: ['start', 'fail', '0', '1'],
    },
  );
  const answer = {
    200: {
      description: 'Recorded.',
      content: {
        'text/plain': { schema: { type: 'string', const: 'OK' } },
        'application/json': { schema: s.ref(PushPingReply, 'output') },
      },
    },
  };
  const body = {
    required: false,
    description: `A log excerpt (any media type, up to ${PUSH_BODY_LIMIT / 1024} KiB); its first ${pushLimits.messageMax} characters become the message when \`msg\` is absent.`,
    content: { '*/*': { schema: { type: 'string' } } },
  };
  const query = parametersOf(PushPingQuery, 'query');
  const routes: DocumentedRoute[] = [];
  for (const [path, params, suffix] of [
    ['/api/push/{token}', [token], ''],
    ['/api/push/{token}/{signal}', [token, signal], 'Signal'],
  ] as const) {
    const summary = suffix ? 'Report a start, a failure or an exit status' : 'Report a run';
    routes.push(
      documented('get', path, {
        id: `ping${suffix}`,
        tag: 'push',
        summary,
        description: pushDescription,
        parameters: [...params, ...query],
        responses: answer,
        problems: [400, 404, 409, 429],
      }),
      documented('post', path, {
        id: `ping${suffix}WithLog`,
        tag: 'push',
        summary: `${summary}, with a log excerpt`,
        description: pushDescription,
        parameters: [...params, ...query],
        requestBody: body,
        responses: answer,
        problems: [400, 404, 409, 413, 429],
      }),
    );
  }
  return routes;
}

function operationsRoutes(): DocumentedRoute[] {
  const ok = (extra: Json) => ({
    type: 'object',
    properties: { status: { const: 'ok' }, ...extra },
    required: ['status', ...Object.keys(extra)],
  });
  return [
    documented('get', '/healthz', {
      id: 'getLiveness',
      tag: 'operations',
      summary: 'Liveness: the process answers',
      responses: {
        200: { description: 'Alive.', content: { 'application/json': { schema: ok({}) } } },
      },
    }),
    documented('get', '/readyz', {
      id: 'getReadiness',
      tag: 'operations',
      summary: 'Readiness: the database answers too, and this process holds its cluster leases',
      description:
        'Not ready (503) while the database is unreachable, and, once the process has joined the cluster, while it has not registered yet, has fenced itself (its leases could not be renewed in time) or is shutting down.',
      responses: {
        200: {
          description: 'Ready to serve.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: { const: 'ok' },
                  database: { const: 'ok' },
                  cluster: { const: 'ok' },
                },
                required: ['status', 'database'],
              },
            },
          },
        },
        503: problemRef(503),
      },
    }),
    documented('get', '/metrics', {
      id: 'getMetrics',
      tag: 'operations',
      summary: 'Prometheus metrics of the process, the checks and the notifier',
      description:
        'Open unless the instance protects it with a bearer token or basic credentials (`PAGEWATCH_METRICS_*`, docs/configuration.md).',
      security: [{}, { metricsBearer: [] }, { metricsBasic: [] }],
      responses: {
        200: text('text/plain; version=0.0.4', 'The Prometheus text exposition format.'),
        401: {
          description: 'Protected, and the credentials are missing or wrong.',
          headers: {
            'WWW-Authenticate': header('The schemes the instance accepts (Bearer, Basic).'),
          },
          content: {
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
          },
        },
      },
    }),
    documented('get', '/api/v1/openapi.json', {
      id: 'getOpenApiDocument',
      tag: 'api-description',
      summary: 'This OpenAPI 3.1 document',
      responses: {
        200: {
          description: 'The document.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    }),
  ];
}

function eventsRoute(): DocumentedRoute {
  return documented('get', '/api/v1/events', {
    id: 'streamEvents',
    tag: 'events',
    access: 'viewer',
    security: securityFor('viewer', 'GET'),
    summary: 'Live events (Server-Sent Events), resumable with Last-Event-ID',
    description:
      'A `text/event-stream` of `result`, `status`, `monitor` and `reset` events, each frame with an `id`. Reconnect with `Last-Event-ID` to receive what was missed; when that is too old, a `reset` event says to reload. A comment line every 15 s keeps proxies from closing the stream, and the stream ends when the credential that opened it is revoked, lowered or expires.',
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'The `id` of the last event received, to resume after it.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: text('text/event-stream', 'The stream; it stays open.', {
        headers: { 'Cache-Control': header('`no-cache, no-transform`') },
      }),
    },
    problems: [401],
  });
}

type Json = Record<string, unknown>;

/** Push, health, readiness, metrics, the event stream and this document. */
export const serviceRoutes = (s: SchemaComponents): DocumentedRoute[] => [
  ...pushRoutes(s),
  ...probeProtocolRoutes(s),
  ...operationsRoutes(),
  eventsRoute(),
];
