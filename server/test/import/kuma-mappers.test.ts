import { describe, expect, it } from 'vitest';
import { mapKuma } from '../../src/config-as-code/importers/uptime-kuma/index.js';
import { rollupOfStat } from '../../src/config-as-code/importers/uptime-kuma/history.js';
import { invertedCodes } from '../../src/config-as-code/importers/uptime-kuma/monitor-http.js';
import type {
  KumaMaintenance,
  KumaMonitor,
  KumaSource,
} from '../../src/config-as-code/importers/uptime-kuma/source.js';

/** A Kuma monitor as its form saves one, with `over` on top. */
function monitor(over: Partial<KumaMonitor> & { id: number; type: string }): KumaMonitor {
  return {
    name: `Monitor ${over.id}`,
    active: true,
    parent: null,
    description: '',
    interval: 60,
    retryInterval: 60,
    maxretries: 0,
    timeout: 48,
    resendInterval: 0,
    url: 'https://example.com/health',
    method: 'GET',
    hostname: null,
    port: null,
    keyword: null,
    invertKeyword: false,
    jsonPath: null,
    jsonPathOperator: null,
    expectedValue: null,
    ignoreTls: false,
    upsideDown: false,
    maxredirects: 10,
    acceptedStatuscodes: ['200-299'],
    headers: null,
    body: null,
    httpBodyEncoding: 'json',
    authMethod: null,
    basicAuthUser: null,
    basicAuthPass: null,
    bearerToken: null,
    dnsResolveType: 'A',
    dnsResolveServer: '1.1.1.1',
    pushToken: null,
    expiryNotification: false,
    ipFamily: null,
    conditions: '[]',
    proxyId: null,
    databaseConnectionString: null,
    databaseQuery: null,
    radiusPassword: null,
    ...over,
  };
}

function window(
  over: Partial<KumaMaintenance> & { id: number; strategy: string },
): KumaMaintenance {
  return {
    title: `Window ${over.id}`,
    description: '',
    active: true,
    timezone: 'Europe/Berlin',
    startDate: '2026-12-01 22:00:00',
    endDate: null,
    startTime: '22:00',
    endTime: '23:30',
    weekdays: [],
    daysOfMonth: [],
    intervalDay: 1,
    cron: null,
    duration: null,
    monitorIds: [1],
    statusPageIds: [],
    ...over,
  };
}

function source(over: Partial<KumaSource>): KumaSource {
  return {
    origin: 'test',
    monitors: [monitor({ id: 1, type: 'http' })],
    tags: [],
    monitorTags: [],
    notifications: [],
    monitorNotifications: [],
    statusPages: [],
    maintenance: [],
    serverTimezone: 'UTC',
    stats: { minute: [], hour: [], day: [] },
    ...over,
  };
}

const itemOf = (plan: ReturnType<typeof mapKuma>, prefix: string) =>
  plan.items.find((i) => i.source.startsWith(prefix))!;

describe('the Uptime Kuma mappers', () => {
  it('turns upside-down status codes into their complement', () => {
    expect(invertedCodes(['200-299'])).toEqual(['100-199', '300-599']);
    expect(invertedCodes(['200-299', '418'])).toEqual(['100-199', '300-417', '419-599']);
    expect(invertedCodes(['100-599'])).toEqual([]);
  });

  it('maps each maintenance strategy to a schedule, and lists the ones it cannot', () => {
    const plan = mapKuma(
      source({
        maintenance: [
          window({
            id: 1,
            strategy: 'single',
            startDate: '2026-12-01 22:00',
            endDate: '2026-12-02 01:00',
          }),
          window({ id: 2, strategy: 'recurring-interval', intervalDay: 3 }),
          window({
            id: 3,
            strategy: 'recurring-day-of-month',
            cron: '0 22 1,15 * *',
            duration: 5400,
          }),
          window({ id: 4, strategy: 'manual' }),
          window({ id: 5, strategy: 'cron', cron: '30 3 * * 1-5', duration: 1800, active: false }),
          window({
            id: 6,
            strategy: 'cron',
            cron: '30 3 * * 1-5',
            duration: 1800,
            timezone: 'SAME_AS_SERVER',
          }),
        ],
      }),
    );
    const byKey = new Map(plan.document.maintenance.map((m) => [m.key, m]));
    // 22:00 in Berlin in winter is 21:00 UTC.
    expect(byKey.get('kuma-maintenance-1')?.schedule).toEqual({
      kind: 'once',
      startsAt: '2026-12-01T21:00:00.000Z',
      endsAt: '2026-12-02T00:00:00.000Z',
    });
    expect(byKey.get('kuma-maintenance-2')?.schedule).toEqual({
      kind: 'rrule',
      expression: 'FREQ=DAILY;INTERVAL=3',
      durationMinutes: 90,
      from: '2026-12-01T22:00',
      until: null,
    });
    expect(byKey.get('kuma-maintenance-3')?.schedule).toMatchObject({
      kind: 'cron',
      expression: '0 22 1,15 * *',
      durationMinutes: 90,
    });
    expect(itemOf(plan, 'maintenance #4')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('manual window'),
    });
    expect(itemOf(plan, 'maintenance #5')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('paused'),
    });
    expect(byKey.get('kuma-maintenance-6')?.timezone).toBe('UTC');
  });

  it('covers a group’s members when the group is in a window', () => {
    const plan = mapKuma(
      source({
        monitors: [
          monitor({ id: 1, type: 'group', url: null }),
          monitor({ id: 2, type: 'http', parent: 1 }),
          monitor({ id: 3, type: 'port', parent: 1, hostname: 'db.example.com', port: 5432 }),
        ],
        maintenance: [window({ id: 1, strategy: 'cron', cron: '0 1 * * *', duration: 600 })],
      }),
    );
    expect(plan.document.maintenance[0]?.scope).toEqual({
      kind: 'monitors',
      monitors: ['kuma-monitor-2', 'kuma-monitor-3'],
    });
  });

  it('keeps what Pagewatch can express of HTTP monitors and lists the rest', () => {
    const plan = mapKuma(
      source({
        monitors: [
          monitor({
            id: 1,
            type: 'json-query',
            jsonPath: '$count(items)',
            expectedValue: '3',
            jsonPathOperator: '==',
          }),
          monitor({
            id: 2,
            type: 'json-query',
            jsonPath: 'status',
            expectedValue: 'ok',
            jsonPathOperator: '!=',
          }),
          monitor({ id: 3, type: 'http', authMethod: 'bearer', bearerToken: 'tok-123' }),
          monitor({ id: 4, type: 'http', authMethod: 'ntlm' }),
          monitor({ id: 5, type: 'keyword', keyword: 'maintenance', upsideDown: true }),
          monitor({ id: 6, type: 'http', interval: 5, timeout: 0.4, maxretries: 20 }),
          monitor({
            id: 7,
            type: 'port',
            hostname: 'db.example.com',
            port: 5432,
            upsideDown: true,
          }),
          monitor({ id: 8, type: 'docker' }),
          monitor({ id: 9, type: 'http', headers: '{ not json' }),
          monitor({
            id: 10,
            type: 'dns',
            hostname: 'example.com',
            dnsResolveServer: '9.9.9.9,1.1.1.1',
            port: 53,
            dnsResolveType: 'PTR',
          }),
          monitor({ id: 11, type: 'push', pushToken: 'short' }),
          monitor({
            id: 12,
            type: 'http',
            url: 'https://shop.example.com:8443/',
            expiryNotification: true,
          }),
          monitor({
            id: 13,
            type: 'dns',
            hostname: 'example.com',
            conditions:
              '[{"type":"expression","variable":"record","operator":"contains","value":"10.0.0.1"}]',
            proxyId: 2,
          }),
        ],
      }),
    );
    expect(itemOf(plan, 'monitor #1 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('JSONata'),
    });
    expect(itemOf(plan, 'monitor #2 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('"!="'),
    });
    const entries = new Map(plan.document.monitors.map((m) => [m.key, m]));
    expect(entries.get('kuma-monitor-3')).toMatchObject({
      auth: { kind: 'bearer', token: 'tok-123' },
    });
    expect(entries.get('kuma-monitor-4')).toMatchObject({ auth: { kind: 'none' } });
    expect(itemOf(plan, 'monitor #4 ').notes.join(' ')).toContain('"ntlm"');
    expect(entries.get('kuma-monitor-5')).toMatchObject({
      assertions: [{ kind: 'keyword', mode: 'absent' }],
    });
    expect(entries.get('kuma-monitor-6')).toMatchObject({ interval: 10, timeout: 1, retries: 10 });
    expect(itemOf(plan, 'monitor #7 ')).toMatchObject({ outcome: 'skipped' });
    expect(itemOf(plan, 'monitor #8 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('Docker'),
    });
    expect(itemOf(plan, 'monitor #9 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('not valid JSON'),
    });
    expect(itemOf(plan, 'monitor #10 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('recordType'),
    });
    expect(plan.pushTokens.has('kuma-monitor-11')).toBe(false);
    expect(itemOf(plan, 'monitor #11 ').notes.join(' ')).toContain('new push URL');
    expect(itemOf(plan, 'monitor #13 ').notes).toEqual([
      expect.stringMatching(/^Its extra conditions were left out \(\[\{"type":"expression"/),
      'Kuma sent it through a proxy; Pagewatch connects directly',
    ]);
    expect(entries.get('kuma-monitor-12-tls')).toMatchObject({
      type: 'tls',
      host: 'shop.example.com',
      port: 8443,
    });
  });

  it('maps notification kinds Pagewatch has and names the others', () => {
    const plan = mapKuma(
      source({
        notifications: [
          {
            id: 1,
            name: 'ntfy',
            active: true,
            isDefault: false,
            config: {
              type: 'ntfy',
              ntfyserverurl: 'https://ntfy.example.com',
              ntfytopic: 'ops',
              ntfyPriority: 5,
              ntfyAuthenticationMethod: 'accessToken',
              ntfyaccesstoken: 'tk_abc',
            },
          },
          // louislam/uptime-kuma server/notification-providers/pushover.js reads pushoveruserkey,
          // pushoverapptoken and pushoverpriority (the other kinds: kuma-channels.test.ts).
          {
            id: 2,
            name: 'Pushover',
            active: true,
            isDefault: false,
            config: {
              type: 'pushover',
              pushoveruserkey: 'u123',
              pushoverapptoken: 'a123',
              pushoverpriority: '2',
            },
          },
          { id: 3, name: 'Matrix', active: true, isDefault: false, config: { type: 'matrix' } },
          {
            id: 4,
            name: 'Broken Slack',
            active: true,
            isDefault: false,
            config: { type: 'slack', slackwebhookURL: 'not a url' },
          },
        ],
      }),
    );
    expect(plan.document.channels.map((c) => [c.key, c.kind])).toEqual([
      ['kuma-notification-1', 'ntfy'],
      ['kuma-notification-2', 'pushover'],
    ]);
    expect(plan.document.channels[0]).toMatchObject({
      config: { topic: 'ops', priority: 5 },
      secrets: { token: 'tk_abc' },
    });
    expect(itemOf(plan, 'notification #3')).toMatchObject({
      outcome: 'skipped',
      reason: 'Pagewatch has no matrix channel',
    });
    expect(itemOf(plan, 'notification #4')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('secrets.webhookUrl'),
    });
  });

  it('rebuilds a bucket exactly in counts, mean, min and max', () => {
    const r = rollupOfStat('day', {
      monitorId: 4,
      timestamp: 1795564800,
      up: 10,
      down: 2,
      ping: 12.5,
      pingMin: 3,
      pingMax: 40,
    });
    expect(r.delta).toMatchObject({
      bucket: 1795564800_000,
      checks: 12,
      up: 10,
      down: 2,
      latencyCount: 10,
      latencySumUs: 125_000,
      latencyMinUs: 3000,
      latencyMaxUs: 40_000,
    });
    expect(r.delta.sketch.count).toBe(10);
    const untimed = rollupOfStat('hour', {
      monitorId: 4,
      timestamp: 0,
      up: 3,
      down: 0,
      ping: 0,
      pingMin: 0,
      pingMax: 0,
    });
    expect(untimed.delta).toMatchObject({ checks: 3, latencyCount: 0, latencyMinUs: null });
  });
});

describe("Kuma's domain name expiry notification", () => {
  it('becomes the HTTP monitor’s domain registration option where the URL has a registered domain', () => {
    const plan = mapKuma(
      source({
        monitors: [
          monitor({
            id: 1,
            type: 'http',
            url: 'https://shop.example.co.uk/health',
            domainExpiryNotification: true,
          }),
          monitor({
            id: 2,
            type: 'http',
            url: 'http://127.0.0.1:8080/',
            domainExpiryNotification: true,
          }),
          monitor({
            id: 3,
            type: 'http',
            url: 'https://example.com/',
            domainExpiryNotification: false,
          }),
        ],
      }),
    );
    const entries = new Map(plan.document.monitors.map((m) => [m.key, m]));
    expect(entries.get('kuma-monitor-1')).toMatchObject({ domainExpiry: { warnDays: 30 } });
    expect(itemOf(plan, 'monitor #1 ').notes).toContain(
      'Its domain expiry notification watches the registration of example.co.uk, warning 30 days ahead',
    );
    expect(entries.get('kuma-monitor-2')).toMatchObject({ domainExpiry: null });
    expect(entries.get('kuma-monitor-3')).toMatchObject({ domainExpiry: null });
  });
});

describe('Kuma database monitors', () => {
  const db = (id: number, type: string, over: Partial<KumaMonitor>) =>
    monitor({ id, type, url: null, dnsResolveServer: null, ...over });

  it('become PostgreSQL, MySQL, Redis and MongoDB monitors, the connection string taken apart', () => {
    const plan = mapKuma(
      source({
        monitors: [
          db(1, 'postgres', {
            databaseConnectionString:
              'postgres://monitor:s3cr%40t@db.example.com:5433/app?sslmode=verify-full',
            databaseQuery: 'SELECT count(*) FROM jobs',
          }),
          db(2, 'mysql', {
            databaseConnectionString: 'mysql://root@10.0.0.7:3306/shop',
            radiusPassword: 'from-the-form',
          }),
          db(3, 'redis', {
            databaseConnectionString: 'rediss://:cache-pw@cache.example.com:6380/2',
            ignoreTls: true,
          }),
          db(4, 'mongodb', {
            databaseConnectionString:
              'mongodb://app:pw@mongo1.example.com:27017,mongo2.example.com:27017/orders?authSource=admin&tls=true',
          }),
          db(5, 'postgres', {
            databaseConnectionString: 'postgres://u@pg.example.com/app?sslmode=require',
          }),
        ],
      }),
    );
    const entries = new Map(plan.document.monitors.map((m) => [m.key, m]));
    expect(entries.get('kuma-monitor-1')).toMatchObject({
      type: 'postgres',
      host: 'db.example.com',
      port: 5433,
      database: 'app',
      username: 'monitor',
      password: 's3cr@t',
      tls: true,
      ignoreTrust: false,
      query: 'SELECT count(*) FROM jobs',
    });
    expect(itemOf(plan, 'monitor #1 ').notes.join(' ')).toContain('read-only');
    expect(entries.get('kuma-monitor-2')).toMatchObject({
      type: 'mysql',
      host: '10.0.0.7',
      database: 'shop',
      username: 'root',
      password: 'from-the-form',
      tls: false,
    });
    expect(entries.get('kuma-monitor-3')).toMatchObject({
      type: 'redis',
      port: 6380,
      database: 2,
      password: 'cache-pw',
      tls: true,
      ignoreTrust: true,
    });
    expect(entries.get('kuma-monitor-4')).toMatchObject({
      type: 'mongodb',
      host: 'mongo1.example.com',
      database: 'admin',
      username: 'app',
      tls: true,
    });
    expect(itemOf(plan, 'monitor #4 ').notes.join(' ')).toContain('Only the first host');
    // libpq's require encrypts without checking the certificate.
    expect(entries.get('kuma-monitor-5')).toMatchObject({
      tls: true,
      ignoreTrust: true,
      port: 5432,
    });
  });

  it('lists what it cannot carry over, with the reason', () => {
    const plan = mapKuma(
      source({
        monitors: [
          db(1, 'sqlserver', { databaseConnectionString: 'Server=db;User Id=sa' }),
          db(2, 'mongodb', {
            databaseConnectionString: 'mongodb+srv://app:pw@cluster.example.net/',
          }),
          db(3, 'postgres', { databaseConnectionString: '' }),
          db(4, 'redis', { databaseConnectionString: 'redis://cache:6379', upsideDown: true }),
        ],
      }),
    );
    expect(itemOf(plan, 'monitor #1 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('SQL Server'),
    });
    expect(itemOf(plan, 'monitor #2 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('mongodb+srv'),
    });
    expect(itemOf(plan, 'monitor #3 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('no connection string'),
    });
    expect(itemOf(plan, 'monitor #4 ')).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('upside-down'),
    });
  });
});
