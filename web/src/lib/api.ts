import type { FieldError, Problem, ProblemType } from '@pagewatch/contract';

/** Why a request failed: a problem type from the server, or a failure before one arrived. */
export type ApiErrorKind = ProblemType | 'network' | 'unexpected';

/** A failed API call, carrying the RFC 9457 problem the server sent (or one we made up). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  readonly retryAfter: number | undefined;

  constructor(init: {
    kind: ApiErrorKind;
    status: number;
    title: string;
    detail?: string | undefined;
    requestId?: string | undefined;
    fieldErrors?: readonly FieldError[] | undefined;
    retryAfter?: number | undefined;
  }) {
    super(init.detail ?? init.title);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfter = init.retryAfter;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

const BASE = '/api/v1';

const KNOWN_TYPES: ReadonlySet<string> = new Set<ProblemType>([
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'conflict',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'rate_limited',
  'headers_too_large',
  'internal',
  'unavailable',
]);

const KIND_BY_STATUS: Record<number, ProblemType> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function readFieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((e) => ({
    path: str(e.path) ?? '',
    message: str(e.message) ?? 'This value is not valid',
    code: str(e.code) ?? 'invalid',
  }));
}

/** Accepts a type as a bare slug or as a URI ending in one (`https://…/problems/not_found`). */
function readKind(type: unknown, status: number): ApiErrorKind {
  const slug = str(type)?.split('/').pop();
  if (slug !== undefined && KNOWN_TYPES.has(slug)) return slug as ProblemType;
  return KIND_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'unexpected');
}

/** The problem a failed response carries, as an ApiError (for callers that fetch raw bytes). */
export async function toApiError(response: Response): Promise<ApiError> {
  const retryHeader = response.headers.get('retry-after');
  const retryAfter =
    retryHeader !== null && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const problem: Partial<Problem> & Record<string, unknown> = isRecord(body) ? body : {};
  return new ApiError({
    kind: readKind(problem.type, response.status),
    status: response.status,
    title: str(problem.title) ?? (response.statusText || `HTTP ${response.status}`),
    detail: str(problem.detail),
    requestId: str(problem.requestId) ?? response.headers.get('x-request-id') ?? undefined,
    fieldErrors: readFieldErrors(problem.errors),
    retryAfter,
  });
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
}

// The session's CSRF token: read from /auth/me (or a sign-in answer), sent on every write.
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

// Public sign-in calls carry no session yet, so they need no token.
const NO_SESSION_PATHS = ['/auth/login', '/auth/login/totp', '/auth/setup'];

/** The session's CSRF token, for writes that do not go through `api` (raw bodies). */
export async function currentCsrfToken(): Promise<string | null> {
  if (csrfToken) return csrfToken;
  try {
    const response = await fetch(`${BASE}/auth/me`, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (response.ok) {
      const body: unknown = await response.json();
      if (isRecord(body) && typeof body.csrfToken === 'string') csrfToken = body.csrfToken;
    }
  } catch {
    // The write itself will report the network failure.
  }
  return csrfToken;
}

/** Calls the Pagewatch API; resolves with the JSON body (undefined for 202/204) or throws ApiError. */
export async function api<T>(
  path: string,
  options: RequestOptions = {},
  retried = false,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const method = options.method ?? 'GET';
  if (method !== 'GET' && !NO_SESSION_PATHS.includes(path)) {
    const token = await currentCsrfToken();
    if (token) headers['x-csrf-token'] = token;
  }
  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({
      kind: 'network',
      status: 0,
      title: 'Cannot reach the Pagewatch server',
      detail: 'Check your connection; the request will work again once the server is reachable.',
    });
  }
  if (!response.ok) {
    const error = await toApiError(response);
    // A token from before a sign-in or a session change: fetch the current one and try once more.
    if (error.kind === 'forbidden' && /csrf/i.test(error.detail ?? '') && !retried) {
      csrfToken = null;
      return api<T>(path, options, true);
    }
    throw error;
  }
  if (response.status === 204 || response.status === 202) return undefined as T;
  const text = await response.text();
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError({
      kind: 'unexpected',
      status: response.status,
      title: 'The server sent a response Pagewatch could not read',
    });
  }
}
