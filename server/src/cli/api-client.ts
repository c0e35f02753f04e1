import { Problem } from '@pagewatch/contract';
import type { z } from 'zod';
import type { Connection } from './context.js';
import { CliError } from './errors.js';

/** What a request may carry; `body` is sent as JSON. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Bytes sent as they are (a file upload) instead of a JSON `body`. */
  upload?: { bytes: Uint8Array; contentType: string };
  query?: Record<string, string | number | boolean | undefined>;
  /** Milliseconds before the request is given up (default 30 s). */
  timeoutMs?: number;
}

/** Problem answers as values: a command that expects a 409 can read it instead of dying. */
export class ApiProblem extends CliError {
  constructor(readonly problem: Problem) {
    super(describeProblem(problem), problem.status === 400 || problem.status === 409 ? 1 : 2);
  }
}

function describeProblem(p: Problem): string {
  if (p.type === 'unauthenticated')
    return 'The server refused the API key: it is wrong, revoked or expired. Create a new one in Settings → API keys.';
  if (p.type === 'forbidden')
    return `The API key's role may not do this${p.detail ? `: ${p.detail}` : ''}. Use a key of a person with a higher role.`;
  const head = p.detail ? `${p.title}: ${p.detail}` : p.title;
  const fields = (p.errors ?? []).map((e) => `  ${e.path || '(body)'}: ${e.message}`);
  const id = p.requestId ? [`  (request ${p.requestId})`] : [];
  return [head, ...fields, ...id].join('\n');
}

function networkError(url: URL, err: unknown): CliError {
  const cause = (
    err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }
  ).cause;
  // Several addresses tried (localhost: ::1 and 127.0.0.1) come back as an AggregateError.
  const code = cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
  const where = url.origin;
  if (code === 'ECONNREFUSED')
    return new CliError(
      `Nothing answers at ${where} (connection refused). Is Pagewatch running there?`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new CliError(`The host name of ${where} does not resolve.`);
  if ((err as Error).name === 'TimeoutError')
    return new CliError(`${where} did not answer in time.`);
  const why = code ?? cause?.message ?? (err as Error).message;
  return new CliError(`Could not reach ${where}: ${why}.`);
}

/** The REST API of one Pagewatch server, as the CLI uses it: JSON in, parsed JSON out. */
export class ApiClient {
  constructor(private readonly conn: Connection) {}

  get origin(): string {
    return this.conn.url.origin;
  }

  /** Calls `path` (under /api/v1) and parses the answer with `schema`. */
  async call<S extends z.ZodType>(
    path: string,
    schema: S,
    options: RequestOptions = {},
  ): Promise<z.infer<S>> {
    const res = await this.send(path, options);
    const body = await this.json(res);
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new CliError(
        `${this.origin} answered ${path} with something this CLI does not understand; are the CLI and the server the same version?`,
      );
    return parsed.data;
  }

  /** Calls `path` and returns the raw answer (downloads); problems still throw. */
  async raw(path: string, options: RequestOptions = {}): Promise<Response> {
    return this.send(path, options);
  }

  private async send(path: string, options: RequestOptions): Promise<Response> {
    const url = new URL(
      `${this.conn.url.pathname.replace(/\/$/, '')}/api/v1${path}`,
      this.conn.url,
    );
    for (const [k, v] of Object.entries(options.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, {
        method: options.method ?? 'GET',
        headers: {
          authorization: `Bearer ${this.conn.apiKey}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.upload ? { 'content-type': options.upload.contentType } : {}),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        ...(options.upload ? { body: options.upload.bytes } : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw networkError(this.conn.url, err);
    }
    if (res.ok) return res;
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('json')) {
      const problem = Problem.safeParse(await res.json().catch(() => null));
      if (problem.success) throw new ApiProblem(problem.data);
    }
    throw new CliError(
      `${this.origin} answered HTTP ${res.status} (${type || 'no content type'}) for ${url.pathname}: is this a Pagewatch server, and is the URL its address?`,
    );
  }

  private async json(res: Response): Promise<unknown> {
    if (res.status === 204) return undefined;
    try {
      return await res.json();
    } catch {
      throw new CliError(`${this.origin} did not answer JSON: is this a Pagewatch server?`);
    }
  }
}
