import { problemTypes } from '@pagewatch/contract';
import { SESSION_COOKIE } from '../../services/auth/sessions.js';
import type { Access } from '../route.js';
import type { Json } from './schemas.js';

export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/** Whether the server answers a body of another media type with 415 (else it is a 400). */
export const answers415 = (Object.values(problemTypes) as number[]).includes(415);

const problem = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
};

/** One shared answer per problem status, each naming its SPEC §8 `type`. */
const problems: Record<ProblemStatus | 'default', { name: string; description: string }> = {
  400: {
    name: 'ValidationFailed',
    description:
      '`validation_failed`: the query or body is not valid (or not JSON); `errors` lists each field with its path and message.',
  },
  401: {
    name: 'Unauthenticated',
    description:
      '`unauthenticated`: no credentials, or they are unknown, expired, revoked or of a disabled account.',
  },
  403: {
    name: 'Forbidden',
    description:
      "`forbidden`: the caller's role is too low for this operation, a session's CSRF token is missing or stale, or the target is out of reach (e.g. an owner's account).",
  },
  404: {
    name: 'NotFound',
    description: '`not_found`: nothing lives at this address (an unknown or malformed id).',
  },
  409: {
    name: 'Conflict',
    description:
      '`conflict`: the current state does not allow this (e.g. a name already taken, a paused monitor).',
  },
  413: {
    name: 'PayloadTooLarge',
    description: '`payload_too_large`: the body is over this route’s limit (1 MiB unless stated).',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: '`unsupported_media_type`: the body is not of a media type this operation reads.',
  },
  429: {
    name: 'RateLimited',
    description: '`rate_limited`: too many requests; try again after `Retry-After` seconds.',
  },
  503: {
    name: 'Unavailable',
    description: '`unavailable`: a dependency (the database) is not reachable right now.',
  },
  default: {
    name: 'InternalError',
    description: '`internal`: something went wrong on the server; `requestId` ties it to the log.',
  },
};

/** A `$ref` to the shared response of a problem status. */
export const problemRef = (status: ProblemStatus | 'default'): Json => ({
  $ref: `#/components/responses/${problems[status].name}`,
});

export function problemResponses(): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(problems)
      .filter(([status]) => status !== '415' || answers415)
      .map(([status, { name, description }]) => [
        name,
        {
          description,
          ...(status === '429'
            ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } }
            : {}),
          content: problem,
        },
      ]),
  );
}

export const headers: Record<string, Json> = {
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
};

export const securitySchemes: Record<string, Json> = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'pw_…',
    description:
      'An API key (`pw_` and 40 base62 characters), made in Settings → API keys and shown once: `Authorization: Bearer pw_…`. Its role is at most its creator’s. No CSRF token is needed.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: `The browser session set by \`POST /api/v1/auth/login\` (HttpOnly, SameSite=Lax). Over TLS the cookie may carry the \`__Host-\` prefix (\`__Host-${SESSION_COOKIE}\`). State-changing requests made with it also need the \`csrf\` header.`,
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      'The CSRF token of the session (`csrfToken` of `GET /api/v1/auth/me` or of the sign-in answer); required with the session cookie on POST, PUT, PATCH and DELETE.',
  },
  metricsBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The metrics token, when the instance is configured to protect `/metrics`.',
  },
  metricsBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'Basic credentials, when the instance is configured to protect `/metrics`.',
  },
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** An API key, or a session cookie (with its CSRF header when the method changes state). */
export function securityFor(access: Access, method: string): Json[] {
  if (access === 'public') return [];
  return [
    { apiKey: [] },
    SAFE.has(method.toUpperCase()) ? { session: [] } : { session: [], csrf: [] },
  ];
}
