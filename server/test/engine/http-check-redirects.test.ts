import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { check, keyword } from './http-spec.js';

let server: TargetServer;

beforeAll(async () => {
  server = await startTargetServer();
});

afterAll(async () => {
  await server.close();
});

/** Paths the target saw for the requests made by `fn`. */
async function pathsSeen(fn: () => Promise<unknown>): Promise<string[]> {
  const before = server.requests.length;
  await fn();
  return server.requests.slice(before).map((r) => `${r.method} ${r.url}`);
}

const echoHas = (value: string) => keyword(value);

describe('redirects', () => {
  it('follows a chain of relative Locations to the final answer', async () => {
    let run;
    const paths = await pathsSeen(async () => {
      run = await check(`${server.url}/redirect/3`);
    });
    expect(run).toMatchObject({ outcome: 'up', httpStatus: 200, responseSize: 2 });
    expect(paths).toEqual(['GET /redirect/3', 'GET /redirect/2', 'GET /redirect/1', 'GET /ok']);
  });

  it('adds up the hops in the latency but reports the phases of the last one', async () => {
    const run = await check(`${server.url}/redirect/1?to=${encodeURIComponent('/slow?ms=120')}`);
    expect(run.outcome).toBe('up');
    const { connect, ttfb, download } = run.phases;
    expect(ttfb).toBeGreaterThanOrEqual(90);
    expect(run.latencyMs).toBeGreaterThan((connect ?? 0) + (ttfb ?? 0) + (download ?? 0));
  });

  it('allows exactly maxRedirects and fails on one more', async () => {
    expect((await check(`${server.url}/redirect/3`, { maxRedirects: 3 })).outcome).toBe('up');
    const run = await check(`${server.url}/redirect/3`, { maxRedirects: 2 });
    expect(run).toMatchObject({
      outcome: 'down',
      errorCode: 'too_many_redirects',
      httpStatus: 302,
    });
    expect(run.errorMessage).toBe('More than 2 redirects (the next one was to /ok)');
  });

  it('stops a redirect loop', async () => {
    const paths = await pathsSeen(async () => {
      const run = await check(`${server.url}/redirect-loop`, { maxRedirects: 5 });
      expect(run.errorCode).toBe('too_many_redirects');
    });
    expect(paths).toHaveLength(6);
  });

  it('judges the redirect itself when not following', async () => {
    const run = await check(`${server.url}/redirect/1`, { followRedirects: false });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'http_status', httpStatus: 302 });
    expect(run.errorMessage).toBe('HTTP 302 Found (expected 200-299)');
    const accepted = await check(`${server.url}/redirect/1`, {
      followRedirects: false,
      acceptedStatusCodes: ['300-399'],
    });
    expect(accepted).toMatchObject({ outcome: 'up', httpStatus: 302 });
  });

  it.each([303, 301, 302])('turns a POST into a GET without body on %i', async (status) => {
    const run = await check(`${server.url}/redirect/1?status=${status}&to=/echo`, {
      method: 'POST',
      bodyType: 'raw',
      body: 'payload',
      headers: [{ name: 'Content-Type', value: 'text/plain' }],
      assertions: [echoHas('"method":"GET"')],
    });
    expect(run.outcome).toBe('up');
    const final = server.requests.at(-1);
    expect(final?.method).toBe('GET');
    expect(final?.headers['content-type']).toBeUndefined();
    expect(final?.headers['content-length']).toBeUndefined();
  });

  it.each([307, 308])('keeps method and body on %i', async (status) => {
    const run = await check(`${server.url}/redirect/1?status=${status}&to=/echo`, {
      method: 'POST',
      bodyType: 'raw',
      body: 'payload',
      assertions: [echoHas('"method":"POST"')],
    });
    expect(run.outcome).toBe('up');
    expect(
      (
        await check(`${server.url}/redirect/1?status=${status}&to=/echo`, {
          method: 'PUT',
          bodyType: 'raw',
          body: 'payload',
          assertions: [echoHas('"body":"payload"')],
        })
      ).outcome,
    ).toBe('up');
  });

  it('follows an absolute Location to another origin without the credentials', async () => {
    const to = encodeURIComponent(`http://localhost:${server.port}/echo`);
    const run = await check(`${server.url}/redirect/1?to=${to}`, {
      headers: [
        { name: 'Authorization', value: 'Bearer secret' },
        { name: 'X-Kept', value: 'yes' },
      ],
    });
    expect(run.outcome).toBe('up');
    const [first, final] = server.requests.slice(-2);
    expect(first?.headers.authorization).toBe('Bearer secret');
    expect(final?.headers.authorization).toBeUndefined();
    expect(final?.headers['x-kept']).toBe('yes');
    expect(final?.headers.host).toBe(`localhost:${server.port}`);
  });

  it('keeps credentials on a same-origin redirect', async () => {
    await check(`${server.url}/redirect/1?to=/echo`, {
      headers: [{ name: 'Authorization', value: 'Bearer secret' }],
    });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer secret');
  });
});
