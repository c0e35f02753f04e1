import net from 'node:net';
import { Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { monitorInput } from '../support/factories.js';
import { anonymous, expectProblem } from '../security/helpers.js';

/** Sends raw bytes on a fresh connection and resolves with everything the server answers. */
function raw(url: string, request: string): Promise<{ head: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, at), body: text.slice(at + 4) });
    });
  });
}

describe('errors of the framework and of HTTP itself are problem+json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
  });
  afterAll(async () => t.stop());

  it('answers 405 with Allow for a method an API path does not take', async () => {
    const login = await t.inject({
      method: 'DELETE',
      url: '/api/v1/auth/login',
      headers: anonymous,
    });
    expectProblem(login, 405, 'method_not_allowed');
    expect(login.headers.allow).toBe('POST');

    const monitors = await t.inject({ method: 'PUT', url: '/api/v1/monitors/' });
    expectProblem(monitors, 405, 'method_not_allowed');
    expect(monitors.headers.allow).toBe('GET, HEAD, POST');

    const one = await t.inject({ method: 'POST', url: '/api/v1/monitors/12?x=1' });
    expectProblem(one, 405, 'method_not_allowed');
    expect(String(one.headers.allow).split(', ')).toEqual(
      expect.arrayContaining(['GET', 'HEAD', 'DELETE']),
    );
    // A path no method has stays a 404.
    expectProblem(await t.inject({ method: 'PUT', url: '/api/v1/nothing' }), 404, 'not_found');
  });

  it('answers 400 validation_failed for malformed JSON, without repeating the body', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "api", "secret": "hunter2",}',
    });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.detail).toBe('The body is not valid JSON');
    expect(res.body).not.toContain('hunter2');
  });

  it('answers 415 unsupported_media_type for a body that is not JSON', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=api',
    });
    const problem = expectProblem(res, 415, 'unsupported_media_type');
    expect(problem.detail).toContain('application/json');
  });

  it('answers 413 payload_too_large beyond the body limit', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: JSON.stringify({ ...monitorInput(), description: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('answers 414 uri_too_long for an over-long path parameter or address', async () => {
    const param = await t.inject({ url: `/api/v1/monitors/${'9'.repeat(200)}` });
    expectProblem(param, 414, 'uri_too_long');
    const query = await t.inject({ url: `/api/v1/monitors?q=${'q'.repeat(9000)}` });
    expectProblem(query, 414, 'uri_too_long');
    // The problem names the path it is about, without echoing the over-long address back.
    expect(query.json()).toMatchObject({ instance: '/api/v1/monitors' });
    expect(param.body.length).toBeLessThan(1024);
  });

  it('answers what Node’s parser refuses over a real socket: 414, 431 and 400', async () => {
    const cases = [
      [
        `GET /api/v1/monitors?q=${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        414,
        'uri_too_long',
      ],
      [
        `GET /api/v1/monitors HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
        431,
        'headers_too_large',
      ],
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'validation_failed'],
    ] as const;
    for (const [request, status, type] of cases) {
      const res = await raw(t.url, request);
      expect(res.head, type).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(res.head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(Problem.parse(JSON.parse(res.body))).toMatchObject({ status, type });
    }
  });
});
