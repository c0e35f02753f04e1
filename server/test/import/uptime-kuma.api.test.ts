import {
  ChannelList,
  ImportReport,
  MaintenanceList,
  Monitor,
  MonitorList,
  MonitorStats,
  PublicStatusPage,
  StatusPage,
  StatusPageList,
  type ImportItem,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import {
  fixtureClock,
  fixtureRows,
  kumaDb,
  kumaManifest as manifest,
  uploadKuma,
} from '../support/kuma.js';

describe.each(engines)('importing Uptime Kuma 2.5.3 on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine, clock: fixtureClock });
  });
  afterAll(async () => t?.stop());

  const upload = (bytes: Uint8Array, dryRun = false) => uploadKuma(t, bytes, dryRun);

  const monitors = async () =>
    MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json()).items;

  async function monitorOf(kumaId: number): Promise<Monitor> {
    const row = await t.database.db
      .selectFrom('monitors')
      .select('id')
      .where('config_key', '=', `kuma-monitor-${kumaId}`)
      .executeTakeFirstOrThrow();
    return Monitor.parse((await t.inject({ url: `/api/v1/monitors/${row.id}` })).json());
  }

  let report: ImportReport;

  it('previews the import without writing anything', async () => {
    const res = await upload(kumaDb, true);
    expect(res.statusCode).toBe(200);
    report = ImportReport.parse(res.json());
    expect(report).toMatchObject({ source: 'uptime-kuma', dryRun: true });
    expect(report.origin).toContain('Uptime Kuma 2.5.3 database');
    expect(report.counts).toEqual({ created: 29, existing: 0, merged: 3, skipped: 0 });
    expect(await monitors()).toEqual([]);
  });

  it('accounts for every monitor, notification, status page and maintenance window', async () => {
    const res = await upload(kumaDb);
    expect(res.statusCode).toBe(200);
    report = ImportReport.parse(res.json());
    expect(report.dryRun).toBe(false);
    const of = (kind: ImportItem['kind']) => report.items.filter((i) => i.kind === kind);
    // Every Kuma id appears exactly once.
    const kumaMonitorIds = Object.values(manifest.monitors).sort((a, b) => a - b);
    expect(of('monitor').map((i) => Number(/#(\d+)/.exec(i.source)![1]))).toEqual(kumaMonitorIds);
    expect(of('channel').map((i) => i.key)).toEqual(
      [1, 2, 3, 4].map((n) => `kuma-notification-${n}`),
    );
    expect(of('statusPage').map((i) => i.key)).toEqual(['kuma-status-page-1']);
    expect(of('maintenance').map((i) => i.key)).toEqual(['kuma-maintenance-1']);
    const outcome = (id: number) =>
      of('monitor').find((i) => i.source.startsWith(`monitor #${id} `))!;
    for (const group of [1, 2, 3]) {
      expect(outcome(group)).toMatchObject({
        outcome: 'merged',
        reason: expect.stringContaining('group:'),
      });
    }
    for (const ping of [23, 24]) expect(outcome(ping).outcome).toBe('created');
    expect(outcome(15).notes.join(' ')).toMatch(/Upside-down/);
    // 23 monitors plus the TLS monitor for #25's certificate expiry warning.
    expect(await monitors()).toHaveLength(24);
  });

  it('carries over ping monitors: host and echo requests', async () => {
    expect(await monitorOf(23)).toMatchObject({
      type: 'ping',
      host: '127.0.0.1',
      count: 3,
      packetIntervalMs: 1000,
      ipFamily: 'auto',
      timeout: 48,
    });
    expect(await monitorOf(24)).toMatchObject({ type: 'ping', host: '10.20.0.1', interval: 120 });
  });

  it('carries over HTTP, keyword, JSON query, TCP, DNS and push settings', async () => {
    const shop = await monitorOf(4);
    expect(shop).toMatchObject({
      type: 'http',
      interval: 30,
      retries: 2,
      retryInterval: 20,
      timeout: 24,
    });
    expect([...shop.tags].sort()).toEqual(
      ['critical', 'env:production', 'group:Production', 'region:eu-west-1', 'team:web'].sort(),
    );
    expect(await monitorOf(5)).toMatchObject({
      assertions: [{ kind: 'keyword', value: 'Welcome to Acme Shop', mode: 'present' }],
    });
    expect(await monitorOf(6)).toMatchObject({
      assertions: [{ kind: 'json', path: '$.status', op: 'equals', value: 'ok' }],
      tags: expect.arrayContaining(['group:Production', 'group:Payments', 'team:payments']),
    });
    expect(await monitorOf(7)).toMatchObject({
      assertions: [{ path: '$.db.healthy', value: 'true' }],
    });
    expect(await monitorOf(8)).toMatchObject({
      auth: { kind: 'basic', username: 'admin', hasSecret: true },
    });
    const partner = await monitorOf(9);
    if (partner.type !== 'http') throw new Error('http expected');
    expect(partner.headers).toEqual([
      { name: 'X-Api-Key', secret: true, hasValue: true },
      { name: 'Accept', secret: false, hasValue: true, value: 'application/json' },
    ]);
    expect(await monitorOf(10)).toMatchObject({
      followRedirects: false,
      acceptedStatusCodes: ['300-399'],
    });
    expect(await monitorOf(11)).toMatchObject({ acceptedStatusCodes: ['200-299', '418'] });
    expect(await monitorOf(12)).toMatchObject({
      method: 'POST',
      bodyType: 'json',
      acceptedStatusCodes: ['201'],
    });
    expect(await monitorOf(13)).toMatchObject({ timeout: 1 });
    expect(await monitorOf(15)).toMatchObject({ acceptedStatusCodes: ['100-199', '300-599'] });
    expect(await monitorOf(17)).toMatchObject({
      type: 'tcp',
      host: '127.0.0.1',
      port: 5439,
      retries: 2,
    });
    expect(await monitorOf(18)).toMatchObject({
      type: 'dns',
      host: 'shop.acme.test',
      recordType: 'A',
      resolver: '127.0.0.1:5354',
    });
    expect(await monitorOf(19)).toMatchObject({ recordType: 'MX' });
    expect(await monitorOf(20)).toMatchObject({ resolver: '1.1.1.1' });
    expect(await monitorOf(21)).toMatchObject({
      type: 'push',
      pushToken: 'fixtureBackupPushToken0000000001',
    });
    expect(await monitorOf(26)).toMatchObject({
      paused: true,
      description: 'Kept for history; paused',
    });
  });

  it('brings the notifications with their secrets and links, the default one first', async () => {
    const channels = ChannelList.parse(
      (await t.inject({ url: '/api/v1/notification-channels' })).json(),
    ).items;
    // Listed by name.
    expect(channels.map((c) => [c.name, c.kind, c.isDefault])).toEqual([
      ['Email ops@acme.example', 'email', false],
      ['Ops webhook (alert router)', 'webhook', true],
      ['Slack #ops-alerts', 'slack', false],
      ['Telegram on-call group', 'telegram', false],
    ]);
    const email = channels.find((c) => c.kind === 'email')!;
    expect(email).toMatchObject({
      secretsSet: ['password'],
      config: { to: ['ops@acme.example', 'oncall@acme.example'] },
    });
    const ids = new Map(channels.map((c) => [c.kind, c.id]));
    expect([...(await monitorOf(6)).channelIds].sort()).toEqual(
      [ids.get('webhook'), ids.get('slack'), ids.get('telegram')].sort(),
    );
    expect((await monitorOf(21)).channelIds).toEqual([ids.get('webhook')]);
  });

  it('makes the status page with its sections and the maintenance window', async () => {
    const [listed] = StatusPageList.parse(
      (await t.inject({ url: '/api/v1/status-pages' })).json(),
    ).items;
    const page = StatusPage.parse(
      (await t.inject({ url: `/api/v1/status-pages/${listed!.id}` })).json(),
    );
    expect(page).toMatchObject({
      slug: 'acme',
      title: 'Acme Status',
      customDomain: 'status.acme.example',
      published: true,
    });
    expect(page.footer).toContain('© 2026 Acme Inc.');
    expect(page.sections.map((s) => [s.title, s.components.map((c) => c.monitorName)])).toEqual([
      ['Website', ['Shop homepage', 'Shop homepage shows welcome text', 'Shop web port']],
      [
        'APIs',
        [
          'API status',
          'API database health',
          'Partner API (custom headers)',
          'Orders API accepts POST',
        ],
      ],
    ]);
    const [window] = MaintenanceList.parse(
      (await t.inject({ url: '/api/v1/maintenance' })).json(),
    ).items;
    expect(window).toMatchObject({
      title: 'Weekly database maintenance',
      timezone: 'Europe/Berlin',
      schedule: { kind: 'cron', expression: '0 2 * * 0', durationMinutes: 90 },
    });
    if (window!.scope.kind !== 'monitors') throw new Error('monitors expected');
    expect(window!.scope.monitorIds.sort()).toEqual(
      [(await monitorOf(7)).id, (await monitorOf(17)).id].sort(),
    );
  });

  it('answers pushes at their Kuma token, as Kuma’s clients send them', async () => {
    const res = await t.inject({
      url: '/api/push/fixtureBackupPushToken0000000001?status=up&msg=OK&ping=',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    const down = await t.inject({
      url: '/api/push/fixtureInvoicePushToken000000002?status=down&msg=failed&ping=12',
    });
    expect(down.statusCode).toBe(200);
    expect(
      (await t.inject({ url: '/api/push/fixtureInvoicePushToken000000009?status=up' })).statusCode,
    ).toBe(404);
  });

  it('carries stat_daily, stat_hourly and stat_minutely into the rollups', async () => {
    const ids = new Map<number, number>();
    for (const m of await t.database.db
      .selectFrom('monitors')
      .select(['id', 'config_key'])
      .execute()) {
      const kuma = /^kuma-monitor-(\d+)$/.exec(m.config_key ?? '');
      if (kuma) ids.set(Number(kuma[1]), m.id);
    }
    for (const [level, table] of [
      ['day', 'stat_daily'],
      ['hour', 'stat_hourly'],
      ['minute', 'stat_minutely'],
    ] as const) {
      const kuma = fixtureRows<{ monitor_id: number; timestamp: number; up: number; down: number }>(
        `select monitor_id, timestamp, up, down from ${table} where up + down > 0 order by monitor_id, timestamp`,
      )
        .filter((r) => ids.has(r.monitor_id))
        .map((r) => ({
          monitor: ids.get(r.monitor_id)!,
          bucket: r.timestamp * 1000,
          up: r.up,
          down: r.down,
        }));
      const ours = (
        await t.database.db
          .selectFrom(`rollup_${level}` as 'rollup_day')
          .select(['monitor_id', 'bucket', 'up', 'down', 'checks'])
          .orderBy('monitor_id')
          .orderBy('bucket')
          .execute()
      ).map((r) => ({
        monitor: Number(r.monitor_id),
        bucket: Number(r.bucket),
        up: Number(r.up),
        down: Number(r.down),
      }));
      expect(ours).toEqual(kuma);
      expect(kuma.length).toBeGreaterThan(0);
    }
    expect(report.history).toMatchObject({ monitors: 23, days: 23, hours: 23 });
  });

  it('continues the uptime figures and latency from Kuma’s statistics', async () => {
    const [daily] = fixtureRows<{ up: number; down: number; ping: number }>(
      'select up, down, ping from stat_daily where monitor_id = 4',
    );
    const shop = await monitorOf(4);
    const stats = MonitorStats.parse(
      (await t.inject({ url: `/api/v1/monitors/${shop.id}/stats?window=90d` })).json(),
    );
    expect(stats).toMatchObject({
      checks: daily!.up + daily!.down,
      up: daily!.up,
      down: daily!.down,
    });
    expect(stats.uptime).toBeCloseTo((100 * daily!.up) / (daily!.up + daily!.down), 6);
    expect(stats.latency.avg).toBeCloseTo(daily!.ping, 3);
    const slow = MonitorStats.parse(
      (
        await t.inject({ url: `/api/v1/monitors/${(await monitorOf(13)).id}/stats?window=90d` })
      ).json(),
    );
    expect(slow).toMatchObject({ up: 0, uptime: 0 });
  });

  it('shows Kuma’s days on the public page’s uptime bars', async () => {
    const res = await t.inject({ url: '/status/acme/index.json', headers: { authorization: '' } });
    expect(res.statusCode).toBe(200);
    const page = PublicStatusPage.parse(res.json());
    const daily = new Map(
      fixtureRows<{ name: string; up: number; down: number }>(
        'select m.name, s.up, s.down from stat_daily s join monitor m on m.id = s.monitor_id',
      ).map((r) => [r.name, r]),
    );
    const components = page.sections.flatMap((s) => s.components);
    expect(components).toHaveLength(7);
    for (const c of components) {
      const kuma = daily.get(c.name)!;
      expect(c.days).toHaveLength(90);
      const day = c.days!.find((d) => d.date === '2026-11-25');
      expect(day?.uptime, c.name).toBeCloseTo((100 * kuma.up) / (kuma.up + kuma.down), 6);
      expect(c.days!.filter((d) => d.uptime !== null).map((d) => d.date)).toEqual(['2026-11-25']);
    }
  });

  it('imports nothing twice when run again', async () => {
    const before = await monitors();
    const days = await t.database.db
      .selectFrom('rollup_day')
      .select(['monitor_id', 'up', 'down'])
      .execute();
    const res = await upload(kumaDb);
    expect(res.statusCode).toBe(200);
    const again = ImportReport.parse(res.json());
    expect(again.counts).toEqual({ created: 0, existing: 29, merged: 3, skipped: 0 });
    expect(again.history).toEqual({ monitors: 0, days: 0, hours: 0, minutes: 0 });
    expect(await monitors()).toHaveLength(before.length);
    expect(
      await t.database.db.selectFrom('rollup_day').select(['monitor_id', 'up', 'down']).execute(),
    ).toEqual(days);
  });
});
