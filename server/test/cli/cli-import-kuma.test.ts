import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { fixtureClock, KUMA_FIXTURE } from '../support/kuma.js';

const KUMA_DB = path.join(KUMA_FIXTURE, 'kuma.db');

describe('npx pagewatch import uptime-kuma', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true, clock: fixtureClock });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-kuma-cli-'));
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = (id: { headers: { authorization: string } }) => ({
    PAGEWATCH_URL: t.url,
    PAGEWATCH_API_KEY: id.headers.authorization.replace(/^Bearer /, ''),
  });
  const monitorCount = async () =>
    (await t.inject({ url: '/api/v1/monitors' })).json<{ items: unknown[] }>().items.length;

  it('prints the preview with --dry-run and writes nothing', async () => {
    const run = await runCli(['import', 'uptime-kuma', KUMA_DB, '--dry-run'], env(t.owner));
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('Preview (nothing written) from Uptime Kuma 2.5.3 database');
    expect(run.out).toMatch(/to create\s+monitor #4 \(http\) "Shop homepage" → kuma-monitor-4/);
    expect(run.out).toMatch(/to create\s+monitor #23 \(ping\) "Gateway ping \(loopback\)"/);
    expect(run.out).toContain('29 to create, 0 already imported, 3 merged, 0 skipped.');
    expect(await monitorCount()).toBe(0);
  });

  it('imports, then reports everything as already imported', async () => {
    const first = await runCli(['import', 'uptime-kuma', KUMA_DB], env(t.owner));
    expect(first.code).toBe(0);
    expect(first.out).toContain('29 created, 0 already imported, 3 merged, 0 skipped.');
    expect(first.out).toContain('History: 23 days, 23 hours');
    const again = await runCli(['import', 'uptime-kuma', KUMA_DB], env(t.owner));
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 created, 29 already imported, 3 merged, 0 skipped.');
    expect(await monitorCount()).toBe(24);
  });

  it('names a file that is not Kuma’s, a missing file and a role too low', async () => {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'not a database');
    const bad = await runCli(['import', 'uptime-kuma', notes], env(t.owner));
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('This is not an Uptime Kuma database or backup');
    const missing = await runCli(
      ['import', 'uptime-kuma', path.join(dir, 'nope.db')],
      env(t.owner),
    );
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('ENOENT');
    const viewer = await runCli(
      ['import', 'uptime-kuma', KUMA_DB],
      env(await t.identity('editor')),
    );
    expect(viewer.code).toBe(2);
    expect(viewer.err).toContain("The API key's role may not do this");
  });
});
