import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ChannelList,
  ImportReport,
  Monitor,
  MonitorList,
  Problem,
  type ImportItem,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/gatus');
const rich = fs.readFileSync(path.join(fixtures, 'config.yaml'));

describe.each(engines)('importing a Gatus configuration on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t?.stop());

  const upload = (body: Uint8Array | string, dryRun = false) =>
    t.inject({
      method: 'POST',
      url: `/api/v1/import/gatus${dryRun ? '?dryRun=true' : ''}`,
      headers: { ...t.owner.headers, 'content-type': 'application/yaml' },
      payload: Buffer.from(body),
    });
  const monitors = async () =>
    MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json()).items;
  const channels = async () =>
    ChannelList.parse((await t.inject({ url: '/api/v1/notification-channels' })).json()).items;

  async function monitor(key: string): Promise<Monitor> {
    const row = await t.database.db
      .selectFrom('monitors')
      .select('id')
      .where('config_key', '=', key)
      .executeTakeFirstOrThrow();
    return Monitor.parse((await t.inject({ url: `/api/v1/monitors/${row.id}` })).json());
  }

  /** A refused upload: 400 with the field code, and nothing written. */
  async function expectRefused(body: string, code: string): Promise<Problem> {
    const before = (await monitors()).length;
    const res = await upload(body);
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.errors?.[0]).toMatchObject({ path: 'file', code });
    expect((await monitors()).length).toBe(before);
    return problem;
  }

  let report: ImportReport;
  const outcome = (source: string): ImportItem | undefined =>
    report.items.find((i) => i.source === source);

  it('previews without writing anything', async () => {
    const res = await upload(rich, true);
    expect(res.statusCode).toBe(200);
    report = ImportReport.parse(res.json());
    expect(report).toMatchObject({ source: 'gatus', dryRun: true });
    expect(report.counts).toEqual({ created: 19, existing: 0, merged: 0, skipped: 1 });
    expect(await monitors()).toEqual([]);
    expect(await channels()).toEqual([]);
  });

  it('accounts for every endpoint, external endpoint and alerting provider', async () => {
    const res = await upload(rich);
    expect(res.statusCode).toBe(200);
    report = ImportReport.parse(res.json());
    expect(report.counts).toEqual({ created: 19, existing: 0, merged: 0, skipped: 1 });
    const names = [
      'core/website',
      'core/api-health',
      'core/home-page-text',
      'ip-address',
      'databases/postgres',
      'example-dns-query',
      'network/icmp-gateway',
      'network/mail-starttls',
      'network/imaps-certificate',
      'core/legacy-admin',
    ];
    for (const n of names) expect(outcome(`endpoint "${n}"`), n).toBeDefined();
    // icmp:// endpoints become ping monitors (issue 19).
    expect(outcome('endpoint "network/icmp-gateway"')?.outcome).not.toBe('skipped');
    // starttls:// endpoints become SMTP monitors (issue 19).
    expect(outcome('endpoint "network/mail-starttls"')?.outcome).not.toBe('skipped');
    expect(outcome('alerting provider "twilio"')).toMatchObject({
      outcome: 'skipped',
      reason: 'Pagewatch has no twilio channel',
    });
    expect(outcome('endpoint "core/home-page-text"')?.notes).toEqual(['Settings not imported: ui']);
    expect(outcome('endpoint "ip-address"')?.notes).toContain(
      'Condition "[IP] == 203.0.113.10" was left out: Pagewatch has no check for [IP]',
    );
    expect(outcome('endpoint "core/api-health"')?.notes).toContain(
      'Condition "len([BODY].data.items) > 0" was left out: Pagewatch has no check for len()',
    );
    const keys = (await monitors()).map((m) => m.name).sort();
    // 11 before issue 19, plus the ping (icmp://) and the SMTP (starttls://) monitors.
    expect(keys).toHaveLength(13);
    expect((await channels()).map((c) => c.kind).sort()).toEqual(
      ['discord', 'email', 'pagerduty', 'slack', 'telegram', 'webhook'].sort(),
    );
  });

  it('maps starttls:// to an SMTP monitor requiring STARTTLS, the expiry condition as its warning days', async () => {
    expect(await monitor('gatus-network-mail-starttls')).toMatchObject({
      type: 'smtp',
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      warnDays: 2,
    });
  });

  it('maps conditions to the exact assertions, codes and thresholds', async () => {
    expect(await monitor('gatus-core-website')).toMatchObject({
      type: 'http',
      url: 'https://example.com/',
      interval: 300,
      retries: 0,
      acceptedStatusCodes: ['200'],
      assertions: [{ kind: 'latency', maxMs: 499, soft: false }],
      tags: ['group:core'],
    });
    expect(await monitor('gatus-core-website-tls')).toMatchObject({
      type: 'tls',
      host: 'example.com',
      port: 443,
      warnDays: 2,
    });
    expect(await monitor('gatus-core-api-health')).toMatchObject({
      method: 'POST',
      interval: 30,
      timeout: 5,
      ignoreTls: true,
      bodyType: 'json',
      body: '{"probe": true}',
      acceptedStatusCodes: ['100-299'],
      assertions: [
        { kind: 'json', path: '$.status', op: 'equals', value: 'UP', soft: false },
        { kind: 'json', path: '$.data.items[0].id', op: 'equals', value: '42', soft: false },
      ],
    });
    expect(await monitor('gatus-core-home-page-text')).toMatchObject({
      acceptedStatusCodes: ['200-299'],
      assertions: [{ kind: 'regex', pattern: '^.*Acme Corporation.*$', mode: 'present' }],
    });
    expect(await monitor('gatus-ip-address')).toMatchObject({
      acceptedStatusCodes: ['200', '204'],
      assertions: [{ kind: 'regex', pattern: '^203\\.0\\.113\\.10$', flags: 's' }],
    });
    expect(await monitor('gatus-databases-postgres')).toMatchObject({
      type: 'tcp',
      host: 'db.internal.example.com',
      port: 5432,
      degradedThresholdMs: 99,
    });
    expect(await monitor('gatus-example-dns-query')).toMatchObject({
      type: 'dns',
      host: 'example.com',
      recordType: 'A',
      resolver: '8.8.8.8',
      expected: ['93.184.215.14'],
    });
    expect(await monitor('gatus-network-imaps-certificate')).toMatchObject({
      type: 'tls',
      host: 'imap.example.com',
      port: 993,
      warnDays: 10,
    });
    expect(await monitor('gatus-core-legacy-admin')).toMatchObject({
      paused: true,
      acceptedStatusCodes: ['401'],
    });
  });

  it('turns alerts into alert rules and channels', async () => {
    const byKind = new Map((await channels()).map((c) => [c.kind, c.id]));
    const website = await monitor('gatus-core-website');
    // slack's default-alert says 4, pagerduty's own alert 2: the earlier one alerts.
    expect(website.alerts).toMatchObject({ afterChecks: 2, notifyRecovery: true });
    expect(website.channelIds.sort()).toEqual(
      [byKind.get('slack'), byKind.get('pagerduty')].sort(),
    );
    const postgres = await monitor('gatus-databases-postgres');
    expect(postgres.alerts).toMatchObject({ afterChecks: 3, notifyRecovery: false });
    expect(postgres.channelIds).toEqual([byKind.get('telegram')]);
    expect((await monitor('gatus-ip-address')).channelIds).toEqual([]);
    expect(outcome('endpoint "core/legacy-admin"')?.notes).toContain(
      'Its twilio alert was left out: no twilio channel was imported',
    );
  });

  it('makes external endpoints push monitors that answer at their Gatus token', async () => {
    const backup = await monitor('gatus-jobs-nightly-backup');
    expect(backup).toMatchObject({ type: 'push', interval: 86_400 });
    const ok = await t.inject({ url: '/api/push/backup-token-0123456789?status=up' });
    expect(ok.statusCode).toBe(200);
    expect(outcome('external-endpoint "core/ext-ep-test"')?.notes).toContain(
      'Its token is not 8–64 letters, digits, - and _: it gets a new push URL',
    );
    expect((await t.inject({ url: '/api/push/potato?status=up' })).statusCode).toBe(404);
  });

  it('imports nothing twice on a re-run', async () => {
    const before = (await monitors()).length;
    const res = await upload(rich);
    expect(res.statusCode).toBe(200);
    const again = ImportReport.parse(res.json());
    expect(again.counts).toEqual({ created: 0, existing: 19, merged: 0, skipped: 1 });
    expect((await monitors()).length).toBe(before);
  });

  it('refuses malformed YAML with its line and column, writing nothing', async () => {
    const p = await expectRefused(
      'endpoints:\n  - name: a\n    url: "https://a.example\n  - name: b\n',
      'gatus_bad_yaml',
    );
    expect(p.detail).toMatch(/line \d+, column \d+/);
  });

  it('refuses unknown top-level keys, naming them', async () => {
    const p = await expectRefused(
      'endpoint:\n  - name: a\n    url: https://a.example.com\n',
      'gatus_unknown_key',
    );
    expect(p.detail).toContain('Unknown top-level key "endpoint"');
  });

  it('refuses an environment reference the CLI did not substitute', async () => {
    const p = await expectRefused(
      'endpoints:\n  - name: a\n    url: https://a.example.com\n    headers:\n      X-Key: ${API_KEY}\n',
      'gatus_env_reference',
    );
    expect(p.detail).toContain('line 5: $API_KEY');
  });

  it('refuses a file over the 20 MiB import limit', async () => {
    const res = await upload(Buffer.alloc(20 * 1024 * 1024 + 1, 0x20));
    expect(res.statusCode).toBe(413);
    expect(Problem.parse(res.json()).type).toBe('payload_too_large');
  });

  it('refuses a viewer', async () => {
    const viewer = await t.identity('viewer');
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/import/gatus',
      headers: { ...viewer.headers, 'content-type': 'application/yaml' },
      payload: 'endpoints: []\n',
    });
    expect(res.statusCode).toBe(403);
  });
});
