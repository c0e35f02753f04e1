import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Monitor, MonitorList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { runCli, runCliProcess } from '../support/cli.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/gatus');

describe('npx pagewatch import gatus', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cli-gatus-'));
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => ({
    PAGEWATCH_URL: t.url,
    PAGEWATCH_API_KEY: t.owner.headers.authorization.replace(/^Bearer /, ''),
    ...extra,
  });
  const monitors = async () =>
    MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json()).items;
  async function monitor(key: string): Promise<Monitor> {
    const row = await t.database.db
      .selectFrom('monitors')
      .select('id')
      .where('config_key', '=', key)
      .executeTakeFirstOrThrow();
    return Monitor.parse((await t.inject({ url: `/api/v1/monitors/${row.id}` })).json());
  }
  const envFile = path.join(fixtures, 'env.yaml');
  const vars = {
    SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T1/B1/abc',
    SERVICE_NAME: 'billing',
    SERVICE_HOST: 'billing.example.com',
    API_TOKEN: 'tok$en',
  };

  it('names a variable that is not set, with its line, and writes nothing', async () => {
    const { SERVICE_HOST: _host, ...partial } = vars;
    const run = await runCli(['import', 'gatus', envFile], env(partial));
    expect(run.code).toBe(1);
    expect(run.err).toContain('env.yaml: line 7: the environment variable SERVICE_HOST is not set');
    expect(await monitors()).toEqual([]);
  });

  it('previews with --dry-run, writing nothing', async () => {
    const run = await runCli(['import', 'gatus', envFile, '--dry-run'], env(vars));
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('Preview (nothing written)');
    expect(run.out).not.toContain('History:');
    expect(run.out).toContain('to create endpoint "billing" "billing" → gatus-billing');
    expect(await monitors()).toEqual([]);
  });

  it('substitutes $VAR and ${VAR} from its environment; $$ stays a $', async () => {
    const run = await runCli(['import', 'gatus', envFile], env(vars));
    expect(run.code).toBe(0);
    expect(run.out).toContain('created   endpoint "billing" "billing" → gatus-billing');
    const m = await monitor('gatus-billing');
    expect(m).toMatchObject({
      type: 'http',
      name: 'billing',
      url: 'https://billing.example.com/health',
      assertions: [{ kind: 'regex', pattern: '^.*\\$ok.*$' }],
    });
    // The secret header is sealed: only that a value is stored shows.
    expect(m.type === 'http' && m.headers).toEqual([
      { name: 'Authorization', secret: true, hasValue: true },
    ]);
  });

  it('merges a folder as Gatus does and imports every file', async () => {
    const run = await runCli(['import', 'gatus', path.join(fixtures, 'folder')], env());
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    for (const key of ['gatus-frontend-shop', 'gatus-frontend-docs', 'gatus-backend-redis']) {
      expect(run.out).toContain(`→ ${key}`);
    }
    expect(await monitor('gatus-backend-redis')).toMatchObject({
      type: 'tcp',
      port: 6379,
      alerts: { afterChecks: 5 },
    });
    expect(await monitor('gatus-backend-cron-cleanup')).toMatchObject({
      type: 'push',
      interval: 3600,
    });
    expect(run.out).toContain('alerting provider "ntfy" "Gatus ntfy" → gatus-alerting-ntfy');
  });

  it('refuses a folder whose files set one setting two ways', async () => {
    const folder = path.join(dir, 'conflict');
    fs.mkdirSync(folder);
    fs.writeFileSync(
      path.join(folder, 'a.yaml'),
      'alerting:\n  slack:\n    webhook-url: https://a.example.com\n',
    );
    fs.writeFileSync(
      path.join(folder, 'b.yml'),
      'alerting:\n  slack:\n    webhook-url: https://b.example.com\n',
    );
    const run = await runCli(['import', 'gatus', folder], env());
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      '"alerting.slack.webhook-url" is set differently in a.yaml and b.yml',
    );
  });

  it('points at the line and column of a YAML error in a folder file', async () => {
    const folder = path.join(dir, 'broken');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'ok.yaml'), 'endpoints: []\n');
    fs.writeFileSync(path.join(folder, 'bad.yaml'), 'endpoints:\n  - name: [unclosed\n');
    const run = await runCli(['import', 'gatus', folder], env());
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/bad\.yaml is not valid YAML: line \d+, column \d+/);
  });

  it('runs through the real bin', async () => {
    const run = await runCliProcess(
      ['import', 'gatus', path.join(fixtures, 'config.yaml'), '--dry-run'],
      env(),
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'to create endpoint "network/icmp-gateway" "icmp-gateway" → gatus-network-icmp-gateway',
    );
    expect(run.out).toContain('to create external-endpoint "jobs/nightly-backup"');
  });

  it('refuses a file over 20 MiB before sending it', async () => {
    const big = path.join(dir, 'big.yaml');
    fs.writeFileSync(big, Buffer.alloc(20 * 1024 * 1024 + 1, 0x20));
    const run = await runCli(['import', 'gatus', big], env());
    expect(run.code).toBe(1);
    expect(run.err).toContain('imports are limited to 20 MiB');
  });
});
