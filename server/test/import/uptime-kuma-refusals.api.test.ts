import SQLite from 'better-sqlite3';
import { ImportReport, Monitor, MonitorList, Problem, StatusPageList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { alteredFixture, kumaDb, uploadKuma } from '../support/kuma.js';

/** Files the Kuma importer refuses, each with nothing written, and Kuma 1.x's JSON backup. */
describe.each(engines)('Uptime Kuma files on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
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

  /** A refused upload: 400 with the field code, and nothing written. */
  async function expectRefused(bytes: Uint8Array, code: string) {
    const before = (await monitors()).length;
    const res = await upload(bytes);
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(res.json());
    expect(problem.type).toBe('validation_failed');
    expect(problem.errors?.[0]).toMatchObject({ path: 'file', code });
    expect((await monitors()).length).toBe(before);
    return problem;
  }

  it('refuses a file that is not SQLite, naming what it takes', async () => {
    const p = await expectRefused(
      Buffer.from('name,url\nshop,https://example.com\n'),
      'kuma_not_sqlite',
    );
    expect(p.detail).toMatch(/neither an SQLite database .* nor a JSON backup/);
  });

  it('refuses an SQLite database that is not Uptime Kuma’s', async () => {
    const db = new SQLite(':memory:');
    db.exec(
      'create table notes (id integer primary key, text text); insert into notes (text) values (1)',
    );
    const bytes = db.serialize();
    db.close();
    await expectRefused(bytes, 'kuma_not_kuma');
  });

  it('refuses a Kuma database of a version newer than it knows', async () => {
    const bytes = alteredFixture(
      "insert into knex_migrations (name, batch, migration_time) values ('2099-01-01-0000-future-columns.js', 99, 0)",
    );
    const p = await expectRefused(bytes, 'kuma_unknown_version');
    expect(p.detail).toContain('2099-01-01-0000-future-columns.js');
  });

  it('imports an older Kuma 2.x database, one without the columns later releases added', async () => {
    // The 2.5.3 fixture wound back to its schema of late October 2025: the later steps are
    // taken out of its history and the monitor columns they added are dropped, as a database
    // that never ran them would lack them.
    const later = [
      'snmp_v3_username',
      'retry_only_on_status_code_failure',
      'screenshot_delay',
      'ntp_stratum_threshold',
      'ntp_time_offset_threshold',
      'ntp_root_dispersion_threshold',
      'bearer_token',
      'gamedig_token',
    ];
    const older = alteredFixture(
      [
        "delete from knex_migrations where name > '2025-10-24-0000-show-only-last-heartbeat.js'",
        ...later.map((c) => `alter table monitor drop column ${c}`),
      ].join(';\n'),
    );
    const before = (await monitors()).length;
    const res = await upload(older, true);
    expect(res.statusCode).toBe(200);
    const report = ImportReport.parse(res.json());
    expect(report.origin).toBe(
      'Uptime Kuma 2.x database (schema step 2025-10-24-0000-show-only-last-heartbeat.js)',
    );
    const full = ImportReport.parse((await upload(kumaDb, true)).json());
    expect(report.items.map((i) => [i.source, i.outcome])).toEqual(
      full.items.map((i) => [i.source, i.outcome]),
    );
    expect((await monitors()).length).toBe(before);
  });

  it('refuses a Kuma 1.x database and points to the JSON backup', async () => {
    await expectRefused(alteredFixture('drop table knex_migrations'), 'kuma_kuma_1_database');
  });

  it('refuses a file over the 20 MiB import limit', async () => {
    const res = await upload(Buffer.alloc(20 * 1024 * 1024 + 1, 0x20));
    expect(res.statusCode).toBe(413);
    expect(Problem.parse(res.json()).type).toBe('payload_too_large');
  });

  it('refuses a truncated database and a damaged one, writing nothing', async () => {
    await expectRefused(kumaDb.subarray(0, Math.floor(kumaDb.length / 2)), 'kuma_corrupt');
    const damaged = Buffer.from(kumaDb);
    damaged.fill(0xa5, 8 * 4096, 12 * 4096);
    await expectRefused(damaged, 'kuma_corrupt');
  });

  it('keeps a push token once, and gives the monitor that wants it again a new one', async () => {
    const twice = alteredFixture(
      "update monitor set push_token = 'fixtureBackupPushToken0000000001' where id = 22",
    );
    const res = await upload(twice, true);
    expect(res.statusCode).toBe(200);
    const items = ImportReport.parse(res.json()).items;
    const notes = (n: number) => items.find((i) => i.source === `monitor #${n} (push)`)!.notes;
    expect(notes(21)).toEqual([]);
    expect(notes(22)).toEqual([
      'Another monitor here already has its push token: it gets a new push URL',
    ]);
  });

  it('gives a page whose address and domain are taken here another address and no domain', async () => {
    const mine = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: { slug: 'acme', title: 'Our own', customDomain: 'status.acme.example' },
    });
    expect(mine.statusCode).toBe(201);
    const res = await upload(kumaDb);
    expect(res.statusCode).toBe(200);
    const page = ImportReport.parse(res.json()).items.find((i) => i.kind === 'statusPage')!;
    expect(page).toMatchObject({ outcome: 'created', key: 'kuma-status-page-1' });
    expect(page.notes).toEqual(
      expect.arrayContaining([
        'Another page here has /status/acme: this one is /status/acme-kuma',
        'Another page here answers on status.acme.example: this one has no custom domain',
      ]),
    );
    const listed = StatusPageList.parse((await t.inject({ url: '/api/v1/status-pages' })).json());
    expect(listed.items.map((p) => [p.slug, p.customDomain]).sort()).toEqual([
      ['acme', 'status.acme.example'],
      ['acme-kuma', null],
    ]);
  });

  it('imports a Kuma 1.x JSON backup, keeping its 10-character push token', async () => {
    const backup = {
      version: '1.23.16',
      notificationList: [
        {
          id: 7,
          name: 'Legacy hook',
          config: JSON.stringify({
            type: 'webhook',
            webhookURL: 'http://127.0.0.1:9/hook',
            webhookContentType: 'json',
          }),
          active: 1,
          is_default: 0,
          user_id: 1,
        },
      ],
      monitorList: [
        {
          id: 40,
          name: 'Legacy API',
          type: 'keyword',
          url: 'http://127.0.0.1:9/health',
          keyword: 'healthy',
          interval: 60,
          retryInterval: 60,
          maxretries: 1,
          active: true,
          accepted_statuscodes: ['200-299'],
          notificationIDList: { '7': true },
          tags: [{ tag_id: 9, name: 'legacy', color: '#000000', value: '' }],
        },
        {
          id: 41,
          name: 'Old cron',
          type: 'push',
          pushToken: 'abcDEF1234',
          interval: 300,
          active: 1,
        },
        { id: 42, name: 'Router', type: 'ping', hostname: '10.0.0.1', interval: 60, active: 1 },
      ],
    };
    const res = await upload(Buffer.from(JSON.stringify(backup)));
    expect(res.statusCode).toBe(200);
    const got = ImportReport.parse(res.json());
    expect(got.origin).toBe('Uptime Kuma 1.23.16 JSON backup');
    expect(got.items.map((i) => [i.source, i.outcome])).toEqual([
      ['monitor #40 (keyword)', 'created'],
      ['monitor #41 (push)', 'created'],
      ['monitor #42 (ping)', 'created'],
      ['notification #7 (webhook)', 'created'],
    ]);
    expect(await monitorOf(40)).toMatchObject({
      tags: ['legacy'],
      assertions: [{ kind: 'keyword', value: 'healthy' }],
    });
    expect(
      (await t.inject({ url: '/api/push/abcDEF1234?status=up&msg=OK&ping=' })).statusCode,
    ).toBe(200);
    await expectRefused(Buffer.from('{"version": 1}'), 'kuma_bad_backup');
  });
});
