import { Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startTestApp, type TestApp } from '../support/app.js';

const TOKEN = 'scrape-token-0123456789abcdef';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('/metrics behind a token and a password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      engine: 'sqlite',
      config: {
        metrics: {
          ...loadConfig({}).metrics,
          token: TOKEN,
          basicAuth: { user: 'prometheus', password: 'pass:with:colons' },
        },
      },
    });
  });
  afterAll(async () => t.stop());

  const scrape = (authorization: string) =>
    t.inject({ url: '/metrics', headers: { authorization } });

  it('answers 401 problem+json offering both schemes without credentials', async () => {
    const res = await scrape('');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Problem.parse(res.json())).toMatchObject({ type: 'unauthenticated', status: 401 });
    expect(res.headers['www-authenticate']).toEqual([
      'Bearer realm="pagewatch-metrics"',
      'Basic realm="pagewatch-metrics", charset="UTF-8"',
    ]);
    expect(res.body).not.toContain('pagewatch_checks_total');
  });

  it('opens with the bearer token, and only with it', async () => {
    expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    expect((await scrape(`bearer ${TOKEN}`)).body).toContain('pagewatch_checks_total');
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN.slice(0, -1)}`)).statusCode).toBe(401);
    expect((await scrape(`Basic ${TOKEN}`)).statusCode).toBe(401);
    // An API key opens the API, not /metrics: scraping has its own credential.
    expect((await scrape(t.owner.headers.authorization)).statusCode).toBe(401);
  });

  it('opens with the user and password, colons in the password included', async () => {
    expect((await scrape(basic('prometheus', 'pass:with:colons'))).statusCode).toBe(200);
    expect((await scrape(basic('prometheus', 'pass:with'))).statusCode).toBe(401);
    expect((await scrape(basic('Prometheus', 'pass:with:colons'))).statusCode).toBe(401);
    expect((await scrape(basic('', ''))).statusCode).toBe(401);
    expect((await scrape('Basic not-base64-at-all')).statusCode).toBe(401);
  });
});

describe('/metrics behind a token alone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      engine: 'sqlite',
      config: { metrics: { ...loadConfig({}).metrics, token: TOKEN } },
    });
  });
  afterAll(async () => t.stop());

  it('offers only the bearer scheme and refuses basic credentials', async () => {
    const res = await t.inject({ url: '/metrics', headers: { authorization: basic('a', TOKEN) } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pagewatch-metrics"');
    const ok = await t.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('/metrics without credentials configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite' });
  });
  afterAll(async () => t.stop());

  it('is open to anyone, whatever Authorization they send', async () => {
    for (const authorization of ['', 'Bearer anything', basic('x', 'y')]) {
      const res = await t.inject({ url: '/metrics', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(200);
    }
  });
});

describe('metrics configuration', () => {
  it('reads the token, user:password split at the first colon, and the series switches', () => {
    const c = loadConfig({
      PAGEWATCH_METRICS_TOKEN: TOKEN,
      PAGEWATCH_METRICS_BASIC_AUTH: 'prom:a:long:password',
      PAGEWATCH_METRICS_PER_MONITOR: 'false',
      PAGEWATCH_METRICS_MONITOR_LIMIT: '500',
    });
    expect(c.metrics).toEqual({
      token: TOKEN,
      basicAuth: { user: 'prom', password: 'a:long:password' },
      perMonitor: false,
      monitorLimit: 500,
    });
    expect(loadConfig({}).metrics).toEqual({
      token: null,
      basicAuth: null,
      perMonitor: true,
      monitorLimit: 10_000,
    });
  });

  it('refuses a short token and basic auth without a user or a password', () => {
    for (const env of [
      { PAGEWATCH_METRICS_TOKEN: 'short' },
      { PAGEWATCH_METRICS_BASIC_AUTH: 'no-colon-here' },
      { PAGEWATCH_METRICS_BASIC_AUTH: ':password-only' },
      { PAGEWATCH_METRICS_BASIC_AUTH: 'user:short' },
      { PAGEWATCH_METRICS_MONITOR_LIMIT: '-1' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(Object.keys(env)[0]);
    }
  });
});
