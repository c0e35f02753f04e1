import { Monitor, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream } from '../support/sse.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const valid = { type: 'http', name: 'API', url: 'https://api.example.com/health' };
const PASSWORD = 'never-shown-Pa55';
const TOKEN = 'tok-never-shown-123';

describe.each(engines)('HTTP monitor options over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return { monitor: Monitor.parse(res.json()), raw: res.body };
  }

  async function put(id: number, body: Record<string, unknown>) {
    return t.inject({ method: 'PUT', url: `/api/v1/monitors/${id}`, ...json(body) });
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('creates one with the new options defaulted and no details yet', async () => {
    const { monitor } = await create(valid);
    expect(monitor).toMatchObject({
      bodyType: 'none',
      body: '',
      auth: { kind: 'none' },
      ipFamily: 'auto',
      ignoreTls: false,
      assertions: [],
      maxBodyBytes: 1024 * 1024,
      lastDetails: null,
    });
    expect(monitor).not.toHaveProperty('keyword');
  });

  it('stores every assertion kind with its defaults, in order', async () => {
    const assertions = [
      { kind: 'keyword', value: 'ok' },
      { kind: 'regex', pattern: '^v\\d+', flags: 'm' },
      { kind: 'json', path: "$.data['a b'][0]", op: 'equals', value: '1' },
      { kind: 'header', name: 'Content-Type', op: 'contains', value: 'json' },
      { kind: 'latency', maxMs: 800 },
      { kind: 'size', op: 'at_most', bytes: 5000, soft: true },
    ];
    const { monitor } = await create({ ...valid, assertions });
    expect(monitor.type === 'http' && monitor.assertions).toEqual([
      { kind: 'keyword', value: 'ok', mode: 'present', caseSensitive: true, soft: false },
      { kind: 'regex', pattern: '^v\\d+', flags: 'm', mode: 'present', soft: false },
      { kind: 'json', path: "$.data['a b'][0]", op: 'equals', value: '1', soft: false },
      { kind: 'header', name: 'Content-Type', op: 'contains', value: 'json', soft: false },
      { kind: 'latency', maxMs: 800, soft: true },
      { kind: 'size', op: 'at_most', bytes: 5000, soft: true },
    ]);
  });

  it('names each invalid assertion and option by its path', async () => {
    const byPath = await errors({
      ...valid,
      url: 'http://127.0.0.1/',
      ipFamily: 'ipv6',
      bodyType: 'json',
      body: '{not json',
      auth: { kind: 'basic', username: 'a:b' },
      maxBodyBytes: 20 * 1024 * 1024,
      assertions: [
        { kind: 'regex', pattern: '(unclosed' },
        { kind: 'json', path: 'data.ok', op: 'exists' },
        { kind: 'json', path: '$.ok', op: 'equals' },
        { kind: 'header', name: 'X Bad', op: 'exists' },
        { kind: 'header', name: 'X-Ok', op: 'matches', value: '[' },
        { kind: 'latency', maxMs: 0 },
        { kind: 'size', op: 'at_least', bytes: -1 },
        { kind: 'keyword', value: '' },
        { kind: 'teapot' },
      ],
    });
    expect(byPath).toEqual({
      'auth.username': 'Basic auth user names cannot contain ":"',
      maxBodyBytes: 'Read at most 10 MiB (10,485,760 bytes)',
      'assertions.0.pattern': 'This is not a valid JavaScript regular expression',
      'assertions.1.path': "Use $ then .name, ['name'], [0] or [*] steps, e.g. $.items[0].id",
      'assertions.2.value': 'Enter the value to compare with',
      'assertions.3.name': "Header names are letters, digits and !#$%&'*+-.^_`|~ only",
      'assertions.4.value': 'This is not a valid JavaScript regular expression',
      'assertions.5.maxMs': 'At least 1 ms',
      'assertions.6.bytes': 'Sizes cannot be negative',
      'assertions.7.value': 'Enter the text to look for',
      'assertions.8.kind': 'Choose an assertion kind',
    });
  });

  it('checks the body against its type and the IP family against the URL', async () => {
    // Rules across fields run once every field is valid on its own, like timeout vs interval.
    expect(await errors({ ...valid, url: 'http://127.0.0.1/', ipFamily: 'ipv6' })).toEqual({
      ipFamily: "The URL's address is IPv4; choose Automatic or IPv4",
    });
    expect(await errors({ ...valid, bodyType: 'json', body: '{not json' })).toEqual({
      body: 'The body is not valid JSON',
    });
    expect(await errors({ ...valid, bodyType: 'form', body: 'a=1&b=two words' })).toEqual({
      body: 'Encode spaces as + or %20, e.g. name=Ann+Lee&remember=1',
    });
    await create({
      ...valid,
      url: 'http://[::1]:8080/',
      ipFamily: 'ipv6',
      bodyType: 'form',
      body: 'a=1&b=%C3%A4',
    });
  });

  it('refuses more than 20 assertions, a body without a type, and g flags', async () => {
    const many = Array.from({ length: 21 }, () => ({ kind: 'keyword', value: 'x' }));
    expect(await errors({ ...valid, assertions: many })).toEqual({
      assertions: 'At most 20 assertions',
    });
    expect((await errors({ ...valid, body: 'x' })).body).toBe(
      'Choose a body type, or clear the body',
    );
    expect(
      (await errors({ ...valid, assertions: [{ kind: 'regex', pattern: 'a', flags: 'g' }] }))[
        'assertions.0.flags'
      ],
    ).toBe('Flags are any of i, m, s and u, each at most once');
    expect(Object.keys(await errors({ ...valid, keyword: { value: 'x' } }))).toEqual(['']);
  });

  it('never returns a password or token, and keeps them encrypted at rest', async () => {
    const basic = { kind: 'basic', username: 'ann', password: PASSWORD };
    const { monitor, raw } = await create({ ...valid, auth: basic });
    expect(monitor.type === 'http' && monitor.auth).toEqual({
      kind: 'basic',
      username: 'ann',
      hasSecret: true,
    });
    expect(raw).not.toContain(PASSWORD);
    const got = await t.inject({ url: `/api/v1/monitors/${monitor.id}` });
    expect(got.body).not.toContain(PASSWORD);
    const row = await t.database.db
      .selectFrom('monitors')
      .select(['config', 'secret'])
      .where('id', '=', monitor.id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(PASSWORD);
    expect(row.secret).toMatch(/^v1\./);
    expect(row.secret).not.toContain(PASSWORD);
    const audit = await t.inject({ url: '/api/v1/audit?limit=50' });
    expect(audit.body).not.toContain(PASSWORD);
  });

  it('keeps the stored secret when an update leaves it out, replaces it when given', async () => {
    const { monitor } = await create({
      ...valid,
      auth: { kind: 'bearer', token: TOKEN },
    });
    const repos = repositories(t.database);
    const sealed = (await repos.monitors.findById(monitor.id))?.secret;
    expect(sealed).toMatch(/^v1\./);
    const kept = await put(monitor.id, { ...valid, name: 'Renamed', auth: { kind: 'bearer' } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ auth: { kind: 'bearer', hasSecret: true } });
    expect((await repos.monitors.findById(monitor.id))?.secret).toBe(sealed);
    const replaced = await put(monitor.id, { ...valid, auth: { kind: 'bearer', token: 'new' } });
    expect(replaced.statusCode).toBe(200);
    expect((await repos.monitors.findById(monitor.id))?.secret).not.toBe(sealed);
    // Another kind does not inherit the secret: a bearer token needs one, a password may be empty.
    const switched = await put(monitor.id, { ...valid, auth: { kind: 'basic', username: 'u' } });
    expect(switched.json()).toMatchObject({
      auth: { kind: 'basic', username: 'u', hasSecret: false },
    });
    const cleared = await put(monitor.id, { ...valid, auth: { kind: 'none' } });
    expect(cleared.json()).toMatchObject({ auth: { kind: 'none' } });
    expect((await repos.monitors.findById(monitor.id))?.secret).toBeNull();
  });

  it('asks for the token of a new bearer auth', async () => {
    expect(await errors({ ...valid, auth: { kind: 'bearer' } })).toEqual({
      'auth.token': 'Enter the token',
    });
    const { monitor } = await create(valid);
    const res = await put(monitor.id, { ...valid, auth: { kind: 'bearer' } });
    expect(res.statusCode).toBe(400);
    expect(Problem.parse(res.json()).errors).toEqual([
      { path: 'auth.token', message: 'Enter the token', code: 'custom' },
    ]);
  });
});

describe.each(engines)('HTTP checks with credentials and details on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  beforeAll(async () => {
    target = await startTargetServer({ tls: 'trusted' });
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      checks: { extraCa: target.ca === undefined ? [] : [target.ca] },
    });
  });
  afterAll(async () => {
    await t.stop();
    await target.close();
  });

  it('sends the decrypted token and keeps the last check details on the monitor', async () => {
    const stream = await openEventStream(t.url, undefined, t.owner.headers);
    try {
      const created = await post(t, '/api/v1/monitors', {
        type: 'http',
        name: 'Echo',
        url: `https://localhost:${target.port}/echo`,
        auth: { kind: 'bearer', token: TOKEN },
        assertions: [{ kind: 'json', path: '$.method', op: 'equals', value: '"POST"' }],
      });
      expect(created.status).toBe(201);
      const id = Monitor.parse(created.body).id;
      const result = await stream.waitFor((e) => e.kind === 'result' && e.monitorId === id);
      expect(target.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      const expected = {
        certificate: expect.objectContaining({
          subject: 'localhost',
          issuer: 'Pagewatch Test CA',
          trusted: true,
        }),
        assertions: [
          expect.objectContaining({ kind: 'status', passed: true }),
          {
            kind: 'json',
            target: '$.method',
            expected: 'equals "POST"',
            actual: '"GET"',
            passed: false,
            soft: false,
          },
        ],
      };
      expect(result.event).toMatchObject({
        result: { errorCode: 'json_assertion' },
        details: expected,
      });
      const got = await fetch(`${t.url}/api/v1/monitors/${id}`, { headers: t.owner.headers });
      const monitor = Monitor.parse(await got.json());
      expect(monitor.lastDetails).toEqual(expected);
      // Result rows stay small: the history has no details.
      const checks = await fetch(`${t.url}/api/v1/monitors/${id}/checks`, {
        headers: t.owner.headers,
      });
      expect(JSON.stringify(await checks.json())).not.toContain('Pagewatch Test CA');
    } finally {
      stream.close();
    }
  });
});
