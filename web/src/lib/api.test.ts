import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api';
import { describeError } from './errors';

const respond = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(body === undefined ? null : JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/problem+json', ...headers },
        }),
    ),
  );

afterEach(() => vi.unstubAllGlobals());

async function failure(): Promise<ApiError> {
  try {
    await api('/monitors');
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('the API client', () => {
  it('turns a validation problem into field errors', async () => {
    respond(400, {
      type: 'validation_failed',
      title: 'Invalid',
      status: 400,
      errors: [{ path: 'url', message: 'Enter a URL', code: 'too_small' }],
    });
    const error = await failure();
    expect(error.kind).toBe('validation_failed');
    expect(error.fieldErrors).toEqual([{ path: 'url', message: 'Enter a URL', code: 'too_small' }]);
  });

  it('keeps the request id of an internal error and says it in plain words', async () => {
    respond(500, { type: 'internal', title: 'Internal', status: 500, requestId: 'req-7' });
    const text = describeError(await failure());
    expect(text.title).toBe('The server hit an error');
    expect(text.detail).toContain('req-7');
  });

  it('falls back to the HTTP status when the body is not a problem', async () => {
    respond(429, undefined, { 'retry-after': '30' });
    const error = await failure();
    expect(error.kind).toBe('rate_limited');
    expect(describeError(error).detail).toBe('Wait 30 seconds and try again.');
  });

  it('reports an unreachable server as a network error, not a crash', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await failure();
    expect(error.kind).toBe('network');
    expect(describeError(error).title).toBe('Cannot reach the Pagewatch server');
  });

  it('describes anything else without "[object Object]"', () => {
    expect(describeError({ weird: true }).detail).toBe('An unexpected error occurred.');
  });
});
