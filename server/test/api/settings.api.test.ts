import { AuditPage, Problem, Settings, StorageReport } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { json } from '../support/status-page-api.js';

const defaults = {
  general: { instanceName: 'Pagewatch', timeZone: 'UTC' },
  retention: { rawDays: 30, minuteRollupDays: 90, hourRollupDays: 730, dayRollupDays: null },
  mail: { systemChannelId: null },
  security: { requireSecondFactor: false },
};

describe.each(engines)('settings API on %s', (engine) => {
  let t: TestApp;
  let admin: Identity;
  let editor: Identity;
  let viewer: Identity;

  beforeAll(async () => {
    t = await startTestApp({ engine, config: { publicUrl: 'https://watch.example.com' } });
    admin = await t.identity('admin');
    editor = await t.identity('editor');
    viewer = await t.identity('viewer');
  });
  afterAll(async () => t?.stop());

  const read = async (who: Identity = viewer) => {
    const res = await t.inject({ url: '/api/v1/settings', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return Settings.parse(res.json());
  };
  const put = (body: unknown, who: Identity = admin) =>
    t.inject({ method: 'PUT', url: '/api/v1/settings', ...json(body, who.headers) });
  const problem = (res: { statusCode: number; json(): unknown }, status: number) => {
    expect(res.statusCode).toBe(status);
    return Problem.parse(res.json());
  };
  const auditOf = async (action: string) => {
    const res = await t.inject({ url: `/api/v1/audit?limit=20&action=${action}` });
    return AuditPage.parse(res.json()).items;
  };

  it('answers the SPEC §9 defaults and the public URL the environment sets, to any role', async () => {
    expect(await read(viewer)).toEqual({
      ...defaults,
      environment: { publicUrl: 'https://watch.example.com' },
    });
    const anonymous = await t.inject({ url: '/api/v1/settings', headers: { authorization: '' } });
    expect(problem(anonymous, 401).type).toBe('unauthenticated');
  });

  it('lets an admin replace a group, keeps the other, and writes what changed to the audit log', async () => {
    const res = await put({ general: { instanceName: '  Acme uptime ', timeZone: 'Europe/Kyiv' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(Settings.parse(res.json()).general).toEqual({
      instanceName: 'Acme uptime',
      timeZone: 'Europe/Kyiv',
    });
    expect((await read()).retention).toEqual(defaults.retention);

    const retention = {
      rawDays: 14,
      minuteRollupDays: 30,
      hourRollupDays: 400,
      dayRollupDays: 800,
    };
    expect((await put({ retention })).statusCode).toBe(200);
    expect(await read()).toMatchObject({
      general: { instanceName: 'Acme uptime', timeZone: 'Europe/Kyiv' },
      retention,
    });
    const [latest, first] = await auditOf('settings.updated');
    expect(latest?.summary).toBe(
      'Settings: raw check results 30 days → 14 days; minute rollups 90 days → 30 days; ' +
        'hour rollups 730 days → 400 days; day rollups forever → 800 days',
    );
    expect(latest?.actor.label).toBe('admin key');
    expect(first?.summary).toBe(
      'Settings: name "Pagewatch" → "Acme uptime"; time zone "UTC" → "Europe/Kyiv"',
    );
    // The same values again change nothing and add no line.
    expect((await put({ retention })).statusCode).toBe(200);
    expect(await auditOf('settings.updated')).toHaveLength(2);
  });

  it('stores the current name of a renamed zone and takes current IANA names', async () => {
    for (const [sent, stored] of [
      ['Asia/Calcutta', 'Asia/Kolkata'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Europe/Kiev', 'Europe/Kyiv'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ]) {
      const res = await put({ general: { instanceName: 'Acme uptime', timeZone: sent } });
      expect(res.statusCode, res.body).toBe(200);
      expect(Settings.parse(res.json()).general.timeZone, sent).toBe(stored);
    }
  });

  it('refuses bad values with an error on each field and stores nothing', async () => {
    const before = await read();
    const cases: [unknown, string[]][] = [
      [
        { general: { instanceName: ' ', timeZone: 'Mars/Olympus' } },
        ['general.instanceName', 'general.timeZone'],
      ],
      [{ general: { instanceName: 'x'.repeat(101), timeZone: 'UTC' } }, ['general.instanceName']],
      [
        { retention: { rawDays: 0, minuteRollupDays: 1, hourRollupDays: 30, dayRollupDays: 90 } },
        [
          'retention.rawDays',
          'retention.minuteRollupDays',
          'retention.hourRollupDays',
          'retention.dayRollupDays',
        ],
      ],
      [
        {
          retention: {
            rawDays: 1.5,
            minuteRollupDays: 90,
            hourRollupDays: 60,
            dayRollupDays: null,
          },
        },
        ['retention.rawDays'],
      ],
      [
        {
          retention: { rawDays: 30, minuteRollupDays: 90, hourRollupDays: 60, dayRollupDays: null },
        },
        ['retention.hourRollupDays'],
      ],
      [
        {
          retention: { rawDays: 30, minuteRollupDays: 90, hourRollupDays: 730, dayRollupDays: 365 },
        },
        ['retention.dayRollupDays'],
      ],
      [
        { retention: { rawDays: 30 } },
        ['retention.minuteRollupDays', 'retention.hourRollupDays', 'retention.dayRollupDays'],
      ],
      [{ general: { ...before.general, publicUrl: 'https://x.example' } }, ['general']],
      [{ colour: 'blue' }, ['']],
      [{}, ['']],
    ];
    for (const [body, paths] of cases) {
      const p = problem(await put(body), 400);
      expect(p.type, JSON.stringify(body)).toBe('validation_failed');
      const seen = [...new Set(p.errors?.map((e) => e.path))].sort();
      expect(seen, JSON.stringify(body)).toEqual(paths.sort());
    }
    // A valid group beside an invalid one is not stored either.
    const mixed = await put({
      general: { instanceName: 'Half written', timeZone: 'UTC' },
      retention: { ...before.retention, rawDays: 0 },
    });
    expect(mixed.statusCode).toBe(400);
    expect(await read()).toEqual(before);
  });

  it('lets only admins and owners change settings or read storage figures', async () => {
    const body = { general: { instanceName: 'Not yours', timeZone: 'UTC' } };
    for (const who of [editor, viewer]) {
      expect(problem(await put(body, who), 403).type).toBe('forbidden');
      const storage = await t.inject({ url: '/api/v1/settings/storage', headers: who.headers });
      expect(problem(storage, 403).type).toBe('forbidden');
    }
    expect((await read()).general.instanceName).not.toBe('Not yours');
    expect(
      (await put({ general: { instanceName: 'Acme uptime', timeZone: 'UTC' } }, t.owner))
        .statusCode,
    ).toBe(200);
  });

  it('reports the database size, the check rate and a projection from the retention', async () => {
    for (const interval of [60, 60, 30]) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        ...json({ type: 'http', name: `Rate ${interval}`, url: 'http://127.0.0.1:9/', interval }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await t.inject({ url: '/api/v1/settings/storage', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const s = StorageReport.parse(res.json());
    expect(s.engine).toBe(engine);
    expect(s.activeMonitors).toBe(3);
    expect(s.checksPerMinute).toBeCloseTo(4, 9);
    expect(s.databaseBytes).toBeGreaterThan(50_000);
    expect(s.databaseBytes).toBeLessThan(200 * 1024 * 1024);
    if (engine === 'sqlite') {
      expect(s.walBytes).not.toBeNull();
      expect(s.databaseBytes).toBeGreaterThanOrEqual(s.walBytes!);
      expect(s.freeDiskBytes).toBeGreaterThan(0);
    } else {
      expect(s.walBytes).toBeNull();
      expect(s.freeDiskBytes).toBeNull();
      expect(s.exceedsFreeDisk).toBe(false);
    }
    // 4 checks a minute for the raw keep (14 days, set above), at the measured bytes per row.
    const { retention } = await read();
    expect(s.projection.rawBytes).toBe(Math.round(4 * 1440 * retention.rawDays * s.bytesPerResult));
    expect(s.projectedBytes).toBeGreaterThan(s.databaseBytes);
    expect(s.projectedBytes - s.databaseBytes).toBeCloseTo(
      s.projection.rawBytes +
        s.projection.minuteBytes +
        s.projection.hourBytes +
        s.projection.dayBytes,
      -2,
    );
  });
});
