import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli, runCliProcess } from '../support/cli.js';
import { SAMPLE_ENV, SAMPLE_YAML } from '../config-as-code/sample.js';
import { pngBytes } from '../support/images.js';

const keyOf = (id: { headers: { authorization: string } }) =>
  id.headers.authorization.replace(/^Bearer /, '');

describe('npx pagewatch export, validate, apply and schema', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cli-config-'));
    env = { PAGEWATCH_URL: t.url, PAGEWATCH_API_KEY: keyOf(t.owner), ...SAMPLE_ENV };
    fs.writeFileSync(path.join(dir, 'pagewatch.yaml'), SAMPLE_YAML);
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('validates files offline, and prints each error as file:line:column: path: message', async () => {
    const ok = await runCli(['validate', 'pagewatch.yaml'], {}, dir);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/Valid: 4 monitor\(s\), 2 channel\(s\)/);
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.writeFileSync(
      path.join(dir, 'broken', 'a.yaml'),
      'version: 1\nmonitors:\n  - { key: x, type: tcp, name: X, host: x.example.com, port: 70000 }\n',
    );
    const bad = await runCli(['validate', 'broken'], {}, dir);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^broken\/a\.yaml:3:\d+: monitors\.0\.port: Ports are 1 to 65,535$/m);
    expect(bad.err).toMatch(/1 error\(s\) found/);
  });

  it('applies files, then exports them to a file and to a folder that validate and re-apply', async () => {
    const applied = await runCli(['apply', 'pagewatch.yaml'], env, dir);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.out).toMatch(/monitors created \(4\): api, db, dns-www, nightly/);

    const one = await runCli(['export', '-o', 'export.yaml'], env, dir);
    expect(one.code, one.err).toBe(0);
    const text = fs.readFileSync(path.join(dir, 'export.yaml'), 'utf8');
    expect(text).toMatch(/token: \$\{env:MONITOR_API_TOKEN\}/);
    const folder = await runCli(['export', '--dir', 'exported'], env, dir);
    expect(folder.code, folder.err).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'exported')).sort()).toEqual([
      'channels.yaml',
      'maintenance.yaml',
      'monitors.yaml',
      'slos.yaml',
      'status-pages.yaml',
    ]);
    const valid = await runCli(['validate', 'exported'], {}, dir);
    expect(valid.code, valid.err).toBe(0);
    // No variables set: every stored secret is kept, and nothing changes.
    const again = await runCli(
      ['apply', 'exported'],
      { PAGEWATCH_URL: t.url, PAGEWATCH_API_KEY: keyOf(t.owner) },
      dir,
    );
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/monitors unchanged: 4/);
    expect(again.out).not.toMatch(/updated/);
    const json = await runCli(['export', '--format', 'json'], env, dir);
    expect(JSON.parse(json.out)).toMatchObject({ version: 1 });
  });

  it('asks for --yes before --prune deletes anything', async () => {
    const without = SAMPLE_YAML.replace(/ {2}- key: nightly[\s\S]*?(?=statusPages:)/, '');
    fs.writeFileSync(path.join(dir, 'smaller.yaml'), without);
    const refused = await runCli(['apply', 'smaller.yaml', '--prune'], env, dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/would delete 1 resource\(s\).*--prune --yes/);
    expect(refused.out).toMatch(/monitors deleted \(1\): nightly/);
    const done = await runCli(['apply', 'smaller.yaml', '--prune', '--yes'], env, dir);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toMatch(/monitors deleted \(1\): nightly/);
  });

  it('tells a viewer’s or editor’s key that its role is too low', async () => {
    const editor = await t.identity('editor', 'cli-editor@example.com');
    const run = await runCli(['export'], { ...env, PAGEWATCH_API_KEY: keyOf(editor) }, dir);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/role may not do this/);
  });

  it('validates through the real bin, as npx pagewatch runs it', async () => {
    const run = await runCliProcess(['validate', path.join(dir, 'pagewatch.yaml')]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Valid: 4 monitor\(s\)/);
  });

  it('writes the JSON Schema for editors', async () => {
    const run = await runCli(['schema', '-o', 'schema.json'], {}, dir);
    expect(run.code, run.err).toBe(0);
    const schema = JSON.parse(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8'));
    expect(schema.properties.monitors).toBeDefined();
  });

  // Last: its document has only a page, so the apply detaches what the others applied.
  it('reads a status page logo from an image file beside the YAML, and names a missing one', async () => {
    const site = path.join(dir, 'site');
    fs.mkdirSync(path.join(site, 'img'), { recursive: true });
    fs.writeFileSync(path.join(site, 'img', 'logo.png'), pngBytes);
    const page = (logo: string) =>
      `version: 1\nstatusPages:\n  - key: site\n    slug: site\n    title: Site\n    logo: ${logo}\n`;
    fs.writeFileSync(path.join(site, 'pages.yaml'), page('img/logo.png'));
    const applied = await runCli(['apply', '--yes', 'site'], env, dir);
    expect(applied.err).toBe('');
    expect(applied.code).toBe(0);
    const list = await t.inject({ url: '/api/v1/status-pages', headers: t.owner.headers });
    const id = list
      .json<{ items: { id: number; slug: string }[] }>()
      .items.find((p) => p.slug === 'site')!.id;
    const logo = await t.inject({
      url: `/api/v1/status-pages/${id}/logo`,
      headers: t.owner.headers,
    });
    expect(logo.rawPayload.equals(pngBytes)).toBe(true);

    fs.writeFileSync(path.join(site, 'pages.yaml'), page('img/missing.png'));
    const missing = await runCli(['validate', 'site'], {}, dir);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /^site\/pages\.yaml:6:\d+: statusPages\.0\.logo: img\/missing\.png: no such file$/m,
    );
    fs.writeFileSync(path.join(site, 'pages.yaml'), page('img/logo.svg'));
    const svg = await runCli(['validate', 'site'], {}, dir);
    expect(svg.err).toMatch(/statusPages\.0\.logo: Name a \.png, \.jpg, \.webp or \.gif file/);
  });
});
