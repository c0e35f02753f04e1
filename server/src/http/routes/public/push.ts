import { PushPingQuery, PushToken, toFieldErrors, type PushPingReply } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../../../lib/errors.js';
import { RateLimiter } from '../../../lib/rate-limit.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { receivePing, type PingRequest } from '../../../services/push/ping.js';
import { sendProblem } from '../../plugins/errors.js';

/** A POST body is a log excerpt at most; its start becomes the message when `msg` is absent. */
export const PUSH_BODY_LIMIT = 64 * 1024;
/** Per token: 10 pings at once, then one every 3 s (a 10 s job with start and finish uses 12 a minute). */
export const PUSH_RATE = { burst: 10, refillMs: 3000 } as const;

const MESSAGE_MAX = 1000;

interface Params {
  token: string;
  signal?: string;
}

const nowhere = () => new AppError('not_found', 'No push monitor has this token');

/** `/start`, `/fail` or a process exit status (0 up, anything else down), as Healthchecks reads them. */
function readSignal(
  signal: string | undefined,
): Pick<PingRequest, 'kind'> & { status?: 'up' | 'down' } {
  if (signal === undefined) return { kind: 'finish' };
  if (signal === 'start') return { kind: 'start' };
  if (signal === 'fail') return { kind: 'finish', status: 'down' };
  if (/^\d{1,3}$/.test(signal) && Number(signal) <= 255)
    return { kind: 'finish', status: Number(signal) === 0 ? 'up' : 'down' };
  throw new AppError(
    'not_found',
    'Nothing lives at this address; use /start, /fail or an exit status 0–255',
  );
}

/** Uptime Kuma's push URLs end in `&ping=`: an empty duration is none, not 0 ms. */
function withoutEmptyPing(query: unknown): unknown {
  if (query === null || typeof query !== 'object' || (query as { ping?: unknown }).ping !== '')
    return query;
  const { ping: _ping, ...rest } = query as Record<string, unknown>;
  return rest;
}

const wantsJson = (request: FastifyRequest): boolean =>
  /\bapplication\/json\b/.test(request.headers.accept ?? '');

/**
 * `GET|POST /api/push/:token[/start|/fail|/<exit status>]`: the heartbeat endpoint for cron
 * jobs (SPEC §2). Public: the token is the credential (SPEC §6), so no session, no CSRF, and
 * a wrong token is a plain 404 that never counts as a failed sign-in. Request lines are not
 * logged (they carry the token and cron jobs make many); problems still are.
 */
export async function pushRoutes(app: FastifyInstance, deps: ServiceDeps): Promise<void> {
  const limiter = new RateLimiter(PUSH_RATE, deps.clock);

  async function handle(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const { token, signal } = request.params;
    if (!PushToken.safeParse(token).success) throw nowhere();
    const read = readSignal(signal);
    const waitMs = limiter.take(token);
    if (waitMs > 0) {
      throw new AppError(
        'rate_limited',
        `Too many pings for this monitor; at most ${PUSH_RATE.burst} at once and one every ${PUSH_RATE.refillMs / 1000} s`,
        undefined,
        Math.ceil(waitMs / 1000),
      );
    }
    const query = PushPingQuery.safeParse(withoutEmptyPing(request.query));
    if (!query.success)
      throw validationFailed(toFieldErrors(query.error.issues), 'The query string is not valid');
    const body = typeof request.body === 'string' ? request.body.trim() : '';
    const recorded = await receivePing(deps, {
      token,
      kind: read.kind,
      status: read.status ?? query.data.status,
      message: query.data.msg ?? (body ? body.slice(0, MESSAGE_MAX) : null),
      durationMs: query.data.ping ?? null,
    });
    if (wantsJson(request)) return { ok: true, recorded } satisfies PushPingReply;
    return reply.type('text/plain; charset=utf-8').send('OK');
  }

  await app.register(async (scope) => {
    // Jobs post logs with whatever Content-Type their tool picks (curl -d says form-urlencoded):
    // every body is read as text, up to the limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: PUSH_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.setErrorHandler((err: Error & { code?: string }, request, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return sendProblem(
          reply,
          request,
          'payload_too_large',
          'Push bodies are limited to 64 KiB',
        );
      throw err;
    });
    for (const url of ['/api/push/:token', '/api/push/:token/:signal']) {
      scope.route<{ Params: Params }>({
        method: ['GET', 'POST'],
        url,
        config: { access: 'public' },
        logLevel: 'warn',
        bodyLimit: PUSH_BODY_LIMIT,
        handler: handle,
      });
    }
  });
}
