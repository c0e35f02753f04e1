import { Monitor, Problem, StatusPage, type StatusPageInput } from '@pagewatch/contract';
import { expect } from 'vitest';
import type { Identity, TestApp } from './app.js';
import { monitorInput } from './factories.js';

export const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

let n = 0;
/** A slug no other test uses. */
export const slugOf = () => `page-${++n}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Calls of the status page management API as `editor` (or other headers given); the app and
 * identity are read when called, as suites create them in beforeAll.
 */
export function statusPageApi(app: () => TestApp, editor: () => Identity) {
  const send = (method: 'POST' | 'PUT', url: string, body: unknown, headers?: object) =>
    app().inject({ method, url, ...json(body, { ...(headers ?? editor().headers) }) });
  return {
    send,
    monitor: async (name?: string) => {
      const res = await app().inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json(monitorInput(name ? { name } : {})),
      });
      return Monitor.parse(res.json());
    },
    create: async (body: Partial<StatusPageInput> = {}) => {
      const res = await send('POST', '/api/v1/status-pages', {
        title: 'Acme',
        slug: slugOf(),
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return StatusPage.parse(res.json());
    },
    problem: async (res: { statusCode: number; json(): unknown }, status: number) => {
      expect(res.statusCode).toBe(status);
      return Problem.parse(res.json());
    },
    get: async (id: number) =>
      StatusPage.parse((await app().inject({ url: `/api/v1/status-pages/${id}` })).json()),
  };
}
