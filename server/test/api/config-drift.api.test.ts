import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const document = {
  version: 1,
  monitors: [
    { key: 'api', type: 'http', name: 'API', url: 'https://api.example.com/health' },
    { key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' },
  ],
};

describe.each(engines)('drift of managed resources without a plan on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  const drift = async (headers?: Record<string, string>) => {
    const res = await t.inject({ url: '/api/v1/config/drift', ...(headers ? { headers } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ drift: { kind: string; key: string; changes: unknown[] }[] }>().drift;
  };

  it('is empty right after an apply', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await drift()).toEqual([]);
  });

  it('lists what was changed outside the files, as plan does, to an admin only', async () => {
    const managed = (await t.inject('/api/v1/config/managed')).json<{
      monitors: { id: number; key: string }[];
    }>().monitors;
    const api = managed.find((m) => m.key === 'api')!;
    const paused = await t.inject({ method: 'POST', url: `/api/v1/monitors/${api.id}/pause` });
    expect(paused.statusCode, paused.body).toBe(200);
    for (const role of ['viewer', 'editor'] as const) {
      const refused = await t.inject({
        url: '/api/v1/config/drift',
        headers: (await t.identity(role)).headers,
      });
      expect(refused.statusCode).toBe(403);
    }
    const admin = await t.identity('admin');
    const seen = await drift(admin.headers);
    expect(seen).toEqual([
      { kind: 'monitors', key: 'api', changes: [{ path: 'paused', before: false, after: true }] },
    ]);
    const plan = await t.inject({
      method: 'POST',
      url: '/api/v1/config/plan',
      payload: { document },
    });
    expect(plan.json<{ drift: unknown }>().drift).toEqual(seen);
  });

  it('is empty again once the files are applied, and refused without a session', async () => {
    await t.inject({ method: 'POST', url: '/api/v1/config/apply', payload: { document } });
    expect(await drift()).toEqual([]);
    const anonymous = await t.inject({
      url: '/api/v1/config/drift',
      headers: { authorization: '' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
