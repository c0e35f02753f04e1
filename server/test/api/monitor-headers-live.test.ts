import { Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserSites, type BrowserSites } from '../fixtures/browser-sites.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream, type EventStream } from '../support/sse.js';

const KEY = 'live-key-never-shown-43';

describe.each(engines)('secret request headers on real checks on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let sites: BrowserSites;
  let stream: EventStream;

  beforeAll(async () => {
    target = await startTargetServer();
    sites = await startBrowserSites();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    stream = await openEventStream(t.url, undefined, t.owner.headers);
  });
  afterAll(async () => {
    stream.close();
    await t.stop();
    await target.close();
    await sites.close();
  });

  /** Resolves once the monitor's n-th result is out (the stream keeps past events). */
  const result = (id: number, n: number) => {
    const seen = new Set<number>();
    return stream.waitFor((e) => {
      if (e.kind !== 'result' || e.monitorId !== id) return false;
      seen.add(e.result.id);
      return seen.size >= n;
    }, 30_000);
  };

  const put = (id: number, body: unknown) =>
    fetch(`${t.url}/api/v1/monitors/${id}`, {
      method: 'PUT',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('an HTTP check sends the secret value every time, and no result repeats what the target echoed', async () => {
    const definition = {
      type: 'http',
      name: 'Echo',
      url: `${target.url}/echo`,
      retries: 0,
      headers: [
        { name: 'X-Api-Key', value: KEY },
        { name: 'Accept', secret: false, value: 'application/json' },
      ],
      // Fails on purpose, so the result carries what the target echoed as the actual value.
      assertions: [{ kind: 'json', path: '$.headers.x-api-key', op: 'equals', value: '"nope"' }],
    };
    const created = await post(t, '/api/v1/monitors', definition);
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    const first = await result(id, 1);
    const echoed = target.requests.filter((r) => r.url === '/echo');
    expect(echoed.at(-1)?.headers['x-api-key']).toBe(KEY);
    expect(echoed.at(-1)?.headers.accept).toBe('application/json');
    expect(first.event).toMatchObject({
      result: { errorCode: 'json_assertion' },
      details: { assertions: [{ kind: 'status' }, { kind: 'json', actual: '"••••"' }] },
    });

    // Saved with the value left out, the check (run at once by the save) still sends it.
    const saved = await put(id, {
      ...definition,
      name: 'Echo 2',
      headers: [{ name: 'x-api-key' }],
    });
    expect(saved.status).toBe(200);
    await result(id, 2);
    expect(target.requests.filter((r) => r.url === '/echo').at(-1)?.headers['x-api-key']).toBe(KEY);

    const answers = [
      JSON.stringify(stream.events),
      await (await fetch(`${t.url}/api/v1/monitors/${id}`, { headers: t.owner.headers })).text(),
      await (await fetch(`${t.url}/api/v1/monitors`, { headers: t.owner.headers })).text(),
      await (
        await fetch(`${t.url}/api/v1/monitors/${id}/checks`, { headers: t.owner.headers })
      ).text(),
    ];
    expect(answers[0]).toContain('"kind":"monitor"');
    for (const text of answers) expect(text).not.toContain(KEY);
  });

  it('a browser check sends it with every request of the page', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'browser',
      name: 'Shop',
      url: `${sites.url}/healthy`,
      retries: 0,
      interval: 60,
      timeout: 20,
      headers: [{ name: 'X-Api-Key', value: KEY }],
    });
    expect(created.status).toBe(201);
    const id = Monitor.parse(created.body).id;
    expect((await result(id, 1)).event).toMatchObject({ result: { outcome: 'up' } });
    for (const path of ['/healthy', '/site.css', '/app.js', '/hero.svg']) {
      const last = sites.requests.filter((r) => r.path === path).at(-1);
      expect(last?.headers['x-api-key'], path).toBe(KEY);
    }
    const runs = await fetch(`${t.url}/api/v1/monitors/${id}/browser-runs?limit=10`, {
      headers: t.owner.headers,
    });
    expect(runs.status).toBe(200);
    expect(await runs.text()).not.toContain(KEY);
  });
});
