import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigFileStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { until } from '../support/until.js';

// The server's environment supplies `${env:NAME}` (the mode reads process.env).
const SIGNING = 'PW_CONFIG_FILE_TEST_SIGNING';

const CHANNELS = `version: 1
channels:
  - key: ops
    kind: webhook
    name: Ops webhook
    config:
      url: http://127.0.0.1:9/hook
    secrets:
      signingSecret: \${env:${SIGNING}}
`;

const monitorsYaml = (name: string, port: string | number = 5432) => `version: 1
monitors:
  - key: db
    type: tcp
    name: ${name}
    host: 127.0.0.1
    port: ${port}
    channels: [ops]
  - key: cache
    type: tcp
    name: Cache
    host: 127.0.0.1
    port: 6379
    channels: []
`;

const PAGES = `version: 1
statusPages:
  - key: public
    slug: taken
    title: From the files
    sections: []
`;

interface Monitor {
  id: number;
  name: string;
}

const monitors = async (t: TestApp) =>
  (await t.inject('/api/v1/monitors')).json<{ items: Monitor[] }>().items;

const status = async (t: TestApp) => {
  const res = await t.inject('/api/v1/config/status');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ConfigFileStatus>();
};

const metric = async (t: TestApp, name: string) => {
  const text = (await t.inject('/metrics')).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

/** Waits for an attempt newer than `after` (ISO time) and returns its status. */
const nextAttempt = (t: TestApp, after: string | null) =>
  until(
    'the files to be read again',
    async () => {
      const s = await status(t);
      return s.lastAttemptAt !== null && s.lastAttemptAt !== after ? s : undefined;
    },
    20_000,
  );

describe.each(engines)('PAGEWATCH_CONFIG on %s', (engine) => {
  let dir: string;
  let t: TestApp;
  const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);

  beforeAll(async () => {
    process.env[SIGNING] = 'signing-secret-from-the-environment';
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-config-'));
    write('channels.yaml', CHANNELS);
    write('monitors.yaml', monitorsYaml('Database'));
    t = await startTestApp({
      engine,
      config: { configFile: { path: dir, prune: false, pollMs: 1_000 } },
    });
    await t.startRoles();
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('applies the folder at start-up: the resources exist, managed by config', async () => {
    const s = await until('the first apply', async () => {
      const s = await status(t);
      return s.ok === null ? undefined : s;
    });
    expect(s).toMatchObject({ enabled: true, source: dir, ok: true, errors: [] });
    expect(s.lastAppliedAt).not.toBeNull();
    expect((await monitors(t)).map((m) => m.name).sort()).toEqual(['Cache', 'Database']);
    const managed = (await t.inject('/api/v1/config/managed')).json<{
      monitors: { key: string }[];
      channels: { key: string }[];
    }>();
    expect(managed.monitors.map((m) => m.key).sort()).toEqual(['cache', 'db']);
    expect(managed.channels.map((c) => c.key)).toEqual(['ops']);
    const audit = await repositories(t.database).audit.page({
      limit: 50,
      actions: ['config.file_applied'],
    });
    expect(audit.items[0]).toMatchObject({ actor: { type: 'system', label: 'config-file' } });
    expect(audit.items[0]?.summary).toContain('3 created');
    expect(await metric(t, 'pagewatch_config_file_last_apply_success')).toBe(1);
  });

  it('re-applies an edited file', async () => {
    const before = await status(t);
    write('monitors.yaml', monitorsYaml('Primary database'));
    const s = await nextAttempt(t, before.lastAttemptAt);
    expect(s.ok).toBe(true);
    expect(s.appliedHash).not.toBe(before.appliedHash);
    expect((await monitors(t)).map((m) => m.name).sort()).toEqual(['Cache', 'Primary database']);
  });

  it('keeps the running configuration when a file breaks, and says where', async () => {
    const before = (await status(t)).lastAttemptAt;
    const appliedAt = (await status(t)).lastAppliedAt;
    // Line 7, the port: a word where a number belongs.
    write('monitors.yaml', monitorsYaml('Renamed in a broken file', '"not a port"'));
    const s = await nextAttempt(t, before);
    expect(s.ok).toBe(false);
    expect(s.lastAppliedAt).toBe(appliedAt);
    expect(s.errors).toContainEqual(
      expect.objectContaining({ file: 'monitors.yaml', line: 7, path: 'monitors.0.port' }),
    );
    expect((await monitors(t)).map((m) => m.name).sort()).toEqual(['Cache', 'Primary database']);
    // A scrape reuses the stored status for a second: the next one after that shows the failure.
    await until('the metric to show the failed apply', async () =>
      (await metric(t, 'pagewatch_config_file_last_apply_success')) === 0 ? true : undefined,
    );
    expect(await metric(t, 'pagewatch_config_file_errors')).toBeGreaterThanOrEqual(1);
  });

  it('reports a YAML syntax error with its line and column', async () => {
    const before = (await status(t)).lastAttemptAt;
    write('monitors.yaml', 'version: 1\nmonitors:\n  - key: db\n    name: [unclosed\n');
    const s = await nextAttempt(t, before);
    expect(s.ok).toBe(false);
    expect(s.errors[0]).toMatchObject({ file: 'monitors.yaml' });
    expect(s.errors[0]?.line).toBeGreaterThanOrEqual(4);
    expect((await monitors(t)).map((m) => m.name).sort()).toEqual(['Cache', 'Primary database']);
  });

  it('reports a variable the server lacks where the file refers to it', async () => {
    const before = (await status(t)).lastAttemptAt;
    write('monitors.yaml', monitorsYaml('Primary database'));
    write('channels.yaml', CHANNELS.replace(SIGNING, 'PW_CONFIG_FILE_TEST_UNSET'));
    const s = await nextAttempt(t, before);
    expect(s.ok).toBe(false);
    expect(s.errors).toEqual([
      {
        file: 'channels.yaml',
        line: 9,
        column: 22,
        path: '',
        message: 'The environment variable PW_CONFIG_FILE_TEST_UNSET is not set on the server',
      },
    ]);
  });

  it('reports what the apply refused in the file that wrote it', async () => {
    const taken = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: { title: 'Made in the UI', slug: 'taken' },
    });
    expect(taken.statusCode, taken.body).toBe(201);
    const before = (await status(t)).lastAttemptAt;
    write('channels.yaml', CHANNELS);
    write('pages.yaml', PAGES);
    const s = await nextAttempt(t, before);
    expect(s.ok).toBe(false);
    // Line 4: the slug another page has.
    expect(s.errors[0]).toMatchObject({ file: 'pages.yaml', line: 4, path: 'statusPages.0.slug' });
    // Nothing of the refused apply was written: the channel file's fix waits for the next one.
    const managed = (await t.inject('/api/v1/config/managed')).json<{ statusPages: unknown[] }>();
    expect(managed.statusPages).toEqual([]);
    fs.rmSync(path.join(dir, 'pages.yaml'));
  });

  it('reports a key written twice, and applies again once fixed', async () => {
    const before = (await status(t)).lastAttemptAt;
    write('channels.yaml', CHANNELS);
    // Two monitors, one key: refused, nothing written.
    write('monitors.yaml', monitorsYaml('Fixed database').replace('key: cache', 'key: db'));
    const broken = await nextAttempt(t, before);
    expect(broken.ok).toBe(false);
    expect(broken.errors[0]).toMatchObject({ file: 'monitors.yaml' });
    write('monitors.yaml', monitorsYaml('Fixed database'));
    const fixed = await until('the fixed files to be applied', async () => {
      const s = await status(t);
      return s.ok ? s : undefined;
    });
    expect(fixed.errors).toEqual([]);
    expect((await monitors(t)).map((m) => m.name).sort()).toEqual(['Cache', 'Fixed database']);
    await until('the metric to show the apply', async () =>
      (await metric(t, 'pagewatch_config_file_last_apply_success')) === 1 ? true : undefined,
    );
    expect(await metric(t, 'pagewatch_config_file_errors')).toBe(0);
  });
});

// Processes share a deployment through PostgreSQL (SQLite is one machine's, one writer).
const shared = engines.filter((e) => e === 'postgres');

describe.each(shared)('PAGEWATCH_CONFIG across processes on %s', (engine) => {
  let dir: string;
  let owner: TestApp;
  let a: TestApp;
  let b: TestApp;
  const holders = () =>
    [a, b].filter((p) =>
      p.cluster.singletons.all().some((l) => l.name === 'config-file' && l.held()),
    );

  beforeAll(async () => {
    process.env[SIGNING] = 'signing-secret-from-the-environment';
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-config-'));
    fs.writeFileSync(path.join(dir, 'channels.yaml'), CHANNELS);
    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitorsYaml('Database'));
    // The schema's owner runs no roles; the two processes under test share it.
    owner = await startTestApp({ engine });
    const configFile = { path: dir, prune: false, pollMs: 1_000 };
    a = await startTestApp({ engine, sharing: owner, config: { configFile } });
    b = await startTestApp({ engine, sharing: owner, config: { configFile } });
    await a.startRoles();
    await b.startRoles();
  });
  afterAll(async () => {
    await b.stop();
    await owner.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('one process applies; when it stops, the other takes over and applies the next edit', async () => {
    await until('the first apply', async () => ((await status(b)).ok ? true : undefined));
    expect(holders()).toEqual([a]);
    expect((await monitors(b)).map((m) => m.name).sort()).toEqual(['Cache', 'Database']);
    await a.stop();
    await until('b to hold the singleton', () => (holders().includes(b) ? true : undefined));
    const before = (await status(b)).lastAttemptAt;
    fs.writeFileSync(path.join(dir, 'monitors.yaml'), monitorsYaml('Edited after failover'));
    await until('the edit to be applied by b', async () => {
      const s = await status(b);
      const names = (await monitors(b)).map((m) => m.name);
      return s.lastAttemptAt !== before && names.includes('Edited after failover')
        ? true
        : undefined;
    });
    expect((await monitors(b)).length).toBe(2);
  });
});
