import { Monitor, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/lib/crypto.js';
import { loadSecretKey } from '../../src/lib/secret-key.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const KEY = 'hdr-key-never-shown-41';
const COOKIE = 'sid=never-shown-cookie-42';
const http = { type: 'http', name: 'API', url: 'https://api.example.com/health' };
const browser = { type: 'browser', name: 'Shop', url: 'https://shop.example.com/' };
/** The key the test app seals with (its PAGEWATCH_SECRET), to read what the row holds. */
const box = new SecretBox(loadSecretKey('test-instance-secret-0123456789abcdef', ''));

describe.each(engines)('monitor request headers over the API on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  const send = (method: 'POST' | 'PUT', url: string, body: unknown) =>
    t.inject({
      method,
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

  async function create(body: Record<string, unknown>) {
    const res = await send('POST', '/api/v1/monitors', body);
    expect(res.statusCode, res.body).toBe(201);
    return { monitor: Monitor.parse(res.json()), raw: res.body };
  }

  async function update(id: number, body: Record<string, unknown>) {
    const res = await send('PUT', `/api/v1/monitors/${id}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return Monitor.parse(res.json());
  }

  async function fieldErrors(method: 'POST' | 'PUT', url: string, body: unknown) {
    const res = await send(method, url, body);
    expect(res.statusCode, res.body).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  /** The raw row, as the database holds it. */
  const row = (id: number) =>
    t.database.db
      .selectFrom('monitors')
      .select(['config', 'secret', 'header_secrets'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  /** The secret values the row holds, opened. */
  const opened = async (id: number): Promise<string[] | null> => {
    const sealed = (await row(id)).header_secrets;
    return sealed === null ? null : (JSON.parse(box.open(sealed)) as string[]);
  };

  const headersOf = (m: Monitor) => (m.type === 'http' || m.type === 'browser' ? m.headers : []);

  it('seals secret header values at rest and answers with their names only; plain ones show', async () => {
    for (const base of [http, browser]) {
      const { monitor, raw } = await create({
        ...base,
        headers: [
          { name: 'X-Api-Key', value: KEY },
          { name: 'Cookie', secret: true, value: COOKIE },
          { name: 'Accept', secret: false, value: 'application/json' },
        ],
      });
      expect(headersOf(monitor)).toEqual([
        { name: 'X-Api-Key', secret: true, hasValue: true },
        { name: 'Cookie', secret: true, hasValue: true },
        { name: 'Accept', secret: false, hasValue: true, value: 'application/json' },
      ]);
      const answers = [
        raw,
        (await t.inject({ url: `/api/v1/monitors/${monitor.id}` })).body,
        (await t.inject({ url: '/api/v1/monitors' })).body,
        (await t.inject({ url: '/api/v1/audit?limit=50' })).body,
      ];
      for (const text of answers) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(COOKIE);
      }
      const stored = await row(monitor.id);
      expect(stored.config).not.toContain(KEY);
      expect(stored.config).not.toContain(COOKIE);
      expect(stored.config).toContain('application/json');
      expect(stored.header_secrets).toMatch(/^v1\./);
      expect(stored.secret).toBeNull();
      expect(await opened(monitor.id)).toEqual([KEY, COOKIE]);
    }
  });

  it('keeps a stored value by name (any case, any order), replaces a given one, drops one left out', async () => {
    const { monitor } = await create({
      ...http,
      headers: [
        { name: 'X-Api-Key', value: KEY },
        { name: 'X-Trace', value: 'trace-one' },
        { name: 'Cookie', value: COOKIE },
      ],
    });
    const before = (await row(monitor.id)).header_secrets;
    const saved = await update(monitor.id, {
      ...http,
      headers: [
        { name: 'Accept', secret: false, value: '*/*' },
        { name: 'cookie', value: 'sid=replaced-cookie' },
        { name: 'x-api-key' },
      ],
    });
    expect(headersOf(saved)).toEqual([
      { name: 'Accept', secret: false, hasValue: true, value: '*/*' },
      { name: 'cookie', secret: true, hasValue: true },
      { name: 'x-api-key', secret: true, hasValue: true },
    ]);
    expect(await opened(monitor.id)).toEqual(['sid=replaced-cookie', KEY]);
    const audit = (await t.inject({ url: '/api/v1/audit?limit=50' })).body;
    expect(audit).toContain('Updated \\"API\\": headers');
    expect(audit).not.toContain('replaced-cookie');

    // Saved again unchanged: the sealed text stays as it was, and no secret counts as changed.
    const sealed = (await row(monitor.id)).header_secrets;
    expect(sealed).not.toBe(before);
    await update(monitor.id, {
      ...http,
      headers: [
        { name: 'Accept', secret: false, value: '*/*' },
        { name: 'cookie' },
        { name: 'x-api-key' },
      ],
    });
    expect((await row(monitor.id)).header_secrets).toBe(sealed);

    // No secret header left: nothing sealed.
    await update(monitor.id, {
      ...http,
      headers: [{ name: 'Accept', secret: false, value: '*/*' }],
    });
    expect((await row(monitor.id)).header_secrets).toBeNull();
  });

  it('matches repeated names in order, and keeps a plain value when the header turns secret', async () => {
    const { monitor } = await create({
      ...browser,
      headers: [
        { name: 'X-Dup', value: 'first-value' },
        { name: 'X-Dup', value: 'second-value' },
        { name: 'Accept-Language', secret: false, value: 'de-CH' },
      ],
    });
    await update(monitor.id, {
      ...browser,
      headers: [
        { name: 'X-Dup', value: 'third-value' },
        { name: 'X-DUP' },
        { name: 'accept-language' },
      ],
    });
    expect(await opened(monitor.id)).toEqual(['third-value', 'second-value', 'de-CH']);
    const got = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${monitor.id}` })).json());
    expect(JSON.stringify(got)).not.toContain('de-CH');
  });

  it('asks for the value of a new, renamed or non-secret header, per field', async () => {
    expect(
      await fieldErrors('POST', '/api/v1/monitors', { ...http, headers: [{ name: 'X-Key' }] }),
    ).toEqual({
      'headers.0.value': 'Enter the value (none is stored under this name)',
    });
    expect(
      await fieldErrors('POST', '/api/v1/monitors', {
        ...http,
        headers: [
          { name: 'X-Key', value: '' },
          { name: 'Accept', secret: false },
          { name: 'Bad Name', value: 'x' },
        ],
      }),
    ).toEqual({
      'headers.0.value': 'Enter the value',
      'headers.1.value': 'Enter the value',
      'headers.2.name': "Header names are letters, digits and !#$%&'*+-.^_`|~ only",
    });
    const { monitor } = await create({ ...http, headers: [{ name: 'X-Key', value: KEY }] });
    const url = `/api/v1/monitors/${monitor.id}`;
    // Renamed: the value stays with the old name, so the new one needs its own.
    expect(await fieldErrors('PUT', url, { ...http, headers: [{ name: 'X-Other' }] })).toEqual({
      'headers.0.value': 'Enter the value (none is stored under this name)',
    });
    // Unticking "secret" never reveals the stored value: a plain header brings its own.
    expect(
      await fieldErrors('PUT', url, { ...http, headers: [{ name: 'X-Key', secret: false }] }),
    ).toEqual({ 'headers.0.value': 'Enter the value' });
    expect(await opened(monitor.id)).toEqual([KEY]);
  });
});
