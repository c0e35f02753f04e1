import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigPlan } from '@pagewatch/contract';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { SAMPLE_ENV, SAMPLE_YAML } from '../config-as-code/sample.js';

const keyOf = (id: { headers: { authorization: string } }) =>
  id.headers.authorization.replace(/^Bearer /, '');

describe('npx pagewatch plan, and apply with its token', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cli-plan-'));
    env = { PAGEWATCH_URL: t.url, PAGEWATCH_API_KEY: keyOf(t.owner), ...SAMPLE_ENV };
    fs.writeFileSync(path.join(dir, 'pagewatch.yaml'), SAMPLE_YAML);
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('plans creates on an empty server, then nothing after the apply', async () => {
    const first = await runCli(['plan', 'pagewatch.yaml'], env, dir);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^ {2}\+ monitor api: create$/m);
    expect(first.out).toMatch(/Plan: 8 to create, 0 to update, 0 unchanged/);
    expect(first.out).toMatch(/^Plan token: v1\.\S+$/m);
    // Not a terminal: no colour codes.
    expect(first.out).not.toContain('\u001b[');
    expect((await runCli(['apply', 'pagewatch.yaml'], env, dir)).code).toBe(0);
    const second = await runCli(['plan', 'pagewatch.yaml'], env, dir);
    expect(second.out).toMatch(/No changes: the server matches the files/);
    expect(second.out).toMatch(/Plan: 0 to create, 0 to update, 8 unchanged/);
  });

  it('prints changed properties and drift, never a secret, and --json for machines', async () => {
    fs.writeFileSync(
      path.join(dir, 'edited.yaml'),
      SAMPLE_YAML.replace('port: 5432', 'port: 5433'),
    );
    const monitors = (await t.inject('/api/v1/monitors')).json<{
      items: { id: number; name: string }[];
    }>().items;
    const api = monitors.find((m) => m.name === 'API health');
    expect(
      (await t.inject({ method: 'POST', url: `/api/v1/monitors/${api?.id}/pause` })).statusCode,
    ).toBe(200);
    const rotated = { ...env, API_TOKEN: 'rotated-secret-value' };
    const text = await runCli(['plan', 'edited.yaml'], rotated, dir);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/^ {2}~ monitor db: update\n {6}port: 5432 → 5433$/m);
    expect(text.out).toMatch(/^ {6}auth\.token: \(secret changed\)$/m);
    expect(text.out).toMatch(/^ {6}headers\.0\.value: \(secret unchanged\)$/m);
    expect(text.out).toMatch(
      /Drift: changed in the UI since the last apply[^\n]*\n {2}! monitor api\n {6}paused: false → true/,
    );
    for (const secret of ['rotated-secret-value', ...Object.values(SAMPLE_ENV)])
      expect(text.out).not.toContain(secret);
    const json = await runCli(['plan', 'edited.yaml', '--json'], rotated, dir);
    const plan = JSON.parse(json.out) as ConfigPlan;
    expect(plan.summary).toMatchObject({ update: 2, drift: 1 });
    expect(json.out).not.toContain('rotated-secret-value');
  });

  it('refuses apply --plan when the server changed after the plan, and writes nothing', async () => {
    const planned = await runCli(['plan', 'edited.yaml', '--out', 'plan.json'], env, dir);
    expect(planned.code, planned.err).toBe(0);
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'plan.json'), 'utf8')) as {
      plan: ConfigPlan;
    };
    expect(planned.out).toContain(`Plan token: ${file.plan.token}`);
    const monitors = (await t.inject('/api/v1/monitors')).json<{
      items: { id: number; name: string; paused: boolean }[];
    }>().items;
    const db = monitors.find((m) => m.name === 'Database');
    expect(
      (await t.inject({ method: 'POST', url: `/api/v1/monitors/${db?.id}/pause` })).statusCode,
    ).toBe(200);
    const refused = await runCli(['apply', 'edited.yaml', '--plan', 'plan.json'], env, dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/changed since this plan was made; nothing was written/);
    expect((await t.inject(`/api/v1/monitors/${db?.id}`)).json()).toMatchObject({ port: 5432 });
    const token = await runCli(['plan', 'edited.yaml', '--json'], env, dir);
    const fresh = (JSON.parse(token.out) as ConfigPlan).token;
    const ok = await runCli(['apply', 'edited.yaml', '--plan-token', fresh], env, dir);
    expect(ok.code, ok.err).toBe(0);
    expect((await t.inject(`/api/v1/monitors/${db?.id}`)).json()).toMatchObject({ port: 5433 });
    const junk = await runCli(['apply', 'edited.yaml', '--plan', 'pagewatch.yaml'], env, dir);
    expect(junk.code).toBe(2);
    expect(junk.err).toMatch(/Cannot read the plan file pagewatch\.yaml/);
  });
});
