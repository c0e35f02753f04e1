import { problemTypes, type Problem, type ProblemType } from '@pagewatch/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';

const titles: Record<ProblemType, string> = {
  validation_failed: 'Some of what was sent is not valid',
  unauthenticated: 'Sign in to continue',
  forbidden: 'You are not allowed to do this',
  second_factor_required: 'Set up a second factor to continue',
  not_found: 'Not found',
  method_not_allowed: 'This address does not take this method',
  request_timeout: 'The request took too long to arrive',
  conflict: 'This conflicts with the current state',
  payload_too_large: 'The request body is too large',
  uri_too_long: 'The address is too long',
  unsupported_media_type: 'The body is not in a format this address takes',
  rate_limited: 'Too many requests',
  headers_too_large: 'The request headers are too large',
  internal: 'Something went wrong on our side',
  unavailable: 'Temporarily unavailable',
};

const byStatus = new Map<number, ProblemType>(
  Object.entries(problemTypes).map(([type, status]) => [status, type as ProblemType]),
);

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/** The RFC 9457 body of a problem type. */
export function problemOf(
  type: ProblemType,
  detail?: string,
  extra: Partial<Problem> = {},
): Problem {
  return {
    type,
    title: titles[type],
    status: problemTypes[type],
    ...(detail ? { detail } : {}),
    ...extra,
  };
}

/** The path the problem is about: never its query, nor more than 512 characters of it (414). */
function instanceOf(url: string): string {
  const path = url.split('?', 1)[0] ?? url;
  return path.length > 512 ? `${path.slice(0, 512)}…` : path;
}

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  type: ProblemType,
  detail?: string,
  extra: Partial<Problem> = {},
): FastifyReply {
  const body = problemOf(type, detail, { instance: instanceOf(request.url), ...extra });
  if (type === 'internal') body.requestId = String(request.id);
  return reply.code(body.status).type(PROBLEM_JSON).send(body);
}

/** 1 MiB, 256 KiB: route body limits are whole KiB or MiB. */
const sizeLabel = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** Maps a Fastify/parser error without our own type to its SPEC §8 problem. */
function classify(
  err: FastifyError,
  request: FastifyRequest,
): { type: ProblemType; detail?: string } {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        type: 'payload_too_large',
        detail: `Request bodies are limited to ${sizeLabel(request.routeOptions.bodyLimit)}`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        type: 'unsupported_media_type',
        detail: 'Send JSON with Content-Type: application/json',
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { type: 'validation_failed', detail: 'The JSON body is empty' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { type: 'validation_failed', detail: 'The body is not valid JSON' };
  }
  if (err instanceof SyntaxError)
    return { type: 'validation_failed', detail: 'The body is not valid JSON' };
  const status = err.statusCode ?? 500;
  const type = byStatus.get(status) ?? (status >= 500 ? 'internal' : 'validation_failed');
  return { type, ...(status < 500 ? { detail: err.message } : {}) };
}

/** One place turns every failure into RFC 9457 problem+json; stacks stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined)
        void reply.header('retry-after', String(err.retryAfterSeconds));
      return sendProblem(
        reply,
        request,
        err.type,
        err.message,
        err.errors ? { errors: err.errors } : {},
      );
    }
    const { type, detail } = classify(err, request);
    if (type === 'internal') request.log.error({ err }, 'unhandled error');
    else request.log.info({ code: err.code, msg: err.message }, 'request rejected');
    if (type === 'rate_limited')
      void reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
    return sendProblem(reply, request, type, detail);
  });
}
