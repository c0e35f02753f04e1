import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.js';

interface Registered {
  method: string;
  url: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route's URL pattern (`:param` one segment, `*` the rest) as a regular expression. */
function patternOf(url: string): RegExp {
  const segments = url
    .replace(/\/+$/, '')
    .split('/')
    .map((s) => (s === '*' ? '.*' : s.startsWith(':') ? '[^/]+' : escape(s)));
  return new RegExp(`^${segments.join('/')}/?$`);
}

let compiled: { from: readonly Registered[]; size: number; routes: [string, RegExp][] } | null =
  null;

/** The methods registered for a concrete API path, for the `Allow` header of a 405. */
export function allowedMethods(routes: readonly Registered[], path: string): string[] {
  if (compiled?.from !== routes || compiled.size !== routes.length) {
    const api = routes.filter((r) => r.url.startsWith('/api/'));
    compiled = {
      from: routes,
      size: routes.length,
      routes: api.map((r) => [r.method, patternOf(r.url)]),
    };
  }
  const methods = new Set(compiled.routes.filter(([, re]) => re.test(path)).map(([m]) => m));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * What an unrouted request gets: under /api/, a path that exists for other methods answers
 * 405 with `Allow` (RFC 9110); anything else is a 404. Both are problem+json.
 */
export function answerUnrouted(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  if (path.startsWith('/api/')) {
    const allow = allowedMethods(request.server.pagewatchRoutes, path);
    if (allow.length > 0 && !allow.includes(request.method)) {
      void reply.header('allow', allow.join(', '));
      return sendProblem(reply, request, 'method_not_allowed', `${path} takes ${allow.join(', ')}`);
    }
  }
  return sendProblem(reply, request, 'not_found', `Nothing lives at ${request.method} ${path}`);
}
