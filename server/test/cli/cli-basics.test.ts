import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli, runCliProcess } from '../support/cli.js';
import { refusedPort } from '../fixtures/target-server.js';

describe('npx pagewatch: reaching the server', () => {
  let t: TestApp;
  let notPagewatch: Server;
  let notPagewatchUrl: string;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
    notPagewatch = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>nginx</h1>'),
    );
    await new Promise<void>((r) => notPagewatch.listen(0, '127.0.0.1', r));
    notPagewatchUrl = `http://127.0.0.1:${(notPagewatch.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.stop();
    await new Promise((r) => notPagewatch.close(r));
  });

  const keyOf = (id: { headers: { authorization: string } }) =>
    id.headers.authorization.replace(/^Bearer /, '');

  it('prints both versions when the URL and key are right', async () => {
    const run = await runCli(['server-version'], {
      PAGEWATCH_URL: t.url,
      PAGEWATCH_API_KEY: keyOf(t.owner),
    });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`Pagewatch ${VERSION}`);
  });

  it('takes --url and --api-key over the environment', async () => {
    const run = await runCli(['--url', t.url, '--api-key', keyOf(t.owner), 'server-version'], {
      PAGEWATCH_URL: notPagewatchUrl,
      PAGEWATCH_API_KEY: 'pw_wrong',
    });
    expect(run.code, run.err).toBe(0);
  });

  it('names what is missing when no URL or key is given', async () => {
    const noUrl = await runCli(['server-version'], { PAGEWATCH_API_KEY: 'x' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.err).toMatch(/set PAGEWATCH_URL .* or pass --url/);
    const noKey = await runCli(['server-version'], { PAGEWATCH_URL: t.url });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/PAGEWATCH_API_KEY or pass --api-key/);
    const notUrl = await runCli(['server-version'], {
      PAGEWATCH_URL: 'localhost 3000',
      PAGEWATCH_API_KEY: 'x',
    });
    expect(notUrl.err).toMatch(/is not a URL/);
  });

  it('says plainly that a key is refused, that nothing answers, or that it is not Pagewatch', async () => {
    const badKey = await runCli(['server-version'], {
      PAGEWATCH_URL: t.url,
      PAGEWATCH_API_KEY: 'pw_wrong',
    });
    expect(badKey.code).toBe(2);
    expect(badKey.err).toMatch(/refused the API key/);
    const port = await refusedPort();
    const nobody = await runCli(['server-version'], {
      PAGEWATCH_URL: `http://127.0.0.1:${port}`,
      PAGEWATCH_API_KEY: 'x',
    });
    expect(nobody.err).toMatch(/Nothing answers at .*connection refused/);
    const other = await runCli(['server-version'], {
      PAGEWATCH_URL: notPagewatchUrl,
      PAGEWATCH_API_KEY: 'x',
    });
    expect(other.err).toMatch(/answered HTTP 404 .*is this a Pagewatch server/);
    for (const r of [nobody, other]) expect(r.err).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers an unknown command with usage and exit code 2', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/unknown command 'frobnicate'/);
  });

  it('runs as the bin that npx starts, right from the sources', async () => {
    const run = await runCliProcess(['server-version'], {
      PAGEWATCH_URL: t.url,
      PAGEWATCH_API_KEY: keyOf(t.owner),
    });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`Pagewatch ${VERSION}`);
    const help = await runCliProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: pagewatch/);
  });
});
