import fastifyCookie from '@fastify/cookie';
import { atLeast } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  actorRole,
  anonymousContext,
  type Actor,
  type RequestContext,
} from '../../domain/actor.js';
import { safeEqual } from '../../lib/crypto.js';
import { forbidden, unauthenticated } from '../../lib/errors.js';
import { inspectApiKey, resolveApiKey } from '../../services/auth/api-key-auth.js';
import {
  csrfTokenFor,
  inspectSession,
  resolveSession,
  SESSION_COOKIE,
  type HeldCredential,
  type StartedSession,
} from '../../services/auth/sessions.js';
import type { ServiceDeps } from '../../services/deps.js';
import {
  enrolmentRequired,
  secondFactorRequiredByPolicy,
} from '../../services/auth/second-factor-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking, set for every request before its handler runs. */
    ctx: RequestContext;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Over TLS the session cookie is `__Host-` prefixed: browsers then hold it only if Secure,
 * host-only and on Path=/, so no sibling subdomain or plain-http answer can plant or shadow it.
 */
const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const sessionCookieName = (request: FastifyRequest) =>
  request.protocol === 'https' ? HOST_SESSION_COOKIE : SESSION_COOKIE;

/** The session token this request carries, under the cookie name its scheme calls for. */
export const sessionTokenOf = (request: FastifyRequest): string | undefined =>
  request.cookies[sessionCookieName(request)];

/** The API key or session token a request carries; a malformed Authorization header carries none. */
function presented(request: FastifyRequest): { key: string } | { session: string } | null {
  const header = request.headers.authorization;
  if (header) {
    const [scheme, key] = header.split(' ');
    return scheme?.toLowerCase() === 'bearer' && key ? { key: key.trim() } : null;
  }
  const token = sessionTokenOf(request);
  return token ? { session: token } : null;
}

async function identify(deps: ServiceDeps, request: FastifyRequest): Promise<Actor | null> {
  const c = presented(request);
  if (!c) return null;
  return 'key' in c ? resolveApiKey(deps, c.key) : resolveSession(deps, c.session);
}

/**
 * The single enforcement point of SPEC §6: each route's declared `access` is checked here,
 * before any handler or body parsing, so no handler needs its own permission code.
 */
export async function registerAuth(
  app: FastifyInstance,
  deps: ServiceDeps,
  options: { authTiming?: boolean } = {},
): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('ctx', null as unknown as RequestContext);
  app.addHook('onRequest', async (request, reply) => {
    const userAgent = request.headers['user-agent'] ?? null;
    request.ctx = anonymousContext(request.ip, userAgent);
    const access = request.routeOptions.config?.access ?? 'public';
    if (access === 'public') return;
    const started = performance.now();
    const actor = await identify(deps, request);
    const role = actor && actorRole(actor);
    if (!actor || !role) throw unauthenticated();
    if (!atLeast(role, access))
      throw forbidden(`This needs the ${access} role or higher; you are ${role}`);
    // Cookies ride along on cross-site requests; a token only our pages can read proves intent.
    if (actor.type === 'user' && !SAFE_METHODS.has(request.method)) {
      const sent = request.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !safeEqual(sent, csrfTokenFor(deps, actor.sessionHash))) {
        throw forbidden('The CSRF token is missing or out of date; reload the page and try again');
      }
    }
    // A session without a second factor the policy requires may only enrol (API keys are exempt).
    if (
      actor.type === 'user' &&
      actor.secondFactor === false &&
      !request.routeOptions.config?.duringEnrolment &&
      (await secondFactorRequiredByPolicy(deps))
    )
      throw enrolmentRequired();
    request.ctx = { actor, ip: request.ip, userAgent };
    // What authentication cost, for dev tools and the benchmark: development only, since the
    // figure tells a cached credential from one just looked up.
    if (options.authTiming)
      void reply.header('server-timing', `auth;dur=${(performance.now() - started).toFixed(3)}`);
  });
}

/**
 * The credentials a long-lived request (an event stream) came with, as they stand now, read
 * without counting as a use; null once signed out, revoked, expired or disabled.
 */
export async function inspectCredential(
  deps: ServiceDeps,
  request: FastifyRequest,
): Promise<HeldCredential | null> {
  const c = presented(request);
  if (!c) return null;
  return 'key' in c ? inspectApiKey(deps, c.key) : inspectSession(deps, c.session);
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  session: StartedSession,
): void {
  void reply.setCookie(sessionCookieName(request), session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    expires: new Date(session.expiresAt),
  });
}

/** Clears the session cookie under both names, whichever scheme set it. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
  });
  void reply.clearCookie(HOST_SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: true,
    path: '/',
  });
}
