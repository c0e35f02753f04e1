import { describe, expect, it } from 'vitest';
import { mapKuma } from '../../src/config-as-code/importers/uptime-kuma/index.js';
import type {
  KumaMonitor,
  KumaSource,
} from '../../src/config-as-code/importers/uptime-kuma/source.js';

/** A Kuma monitor of a non-HTTP type as its form saves one, with `over` on top. */
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
    url: null,
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
    dnsResolveServer: null,
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

const source = (monitors: KumaMonitor[]): KumaSource => ({
  origin: 'test',
  monitors,
  tags: [],
  monitorTags: [],
  notifications: [],
  monitorNotifications: [],
  statusPages: [],
  maintenance: [],
  serverTimezone: 'UTC',
  stats: { minute: [], hour: [], day: [] },
});

const plan = (...monitors: KumaMonitor[]) => mapKuma(source(monitors));
const entry = (p: ReturnType<typeof mapKuma>, id: number) =>
  p.document.monitors.find((m) => m.key === `kuma-monitor-${id}`);
const item = (p: ReturnType<typeof mapKuma>, id: number) =>
  p.items.find((i) => i.source.startsWith(`monitor #${id} `));

describe('Kuma MQTT monitors', () => {
  it('become MQTT monitors waiting for the success text on the topic, login kept', () => {
    const p = plan(
      monitor({
        id: 1,
        type: 'mqtt',
        hostname: 'mqtts://broker.example.com',
        port: 8883,
        mqttTopic: 'plant/boiler/status',
        mqttUsername: 'watcher',
        mqttPassword: 'mq-pass',
        mqttSuccessMessage: 'online',
        mqttCheckType: 'keyword',
      }),
    );
    expect(entry(p, 1)).toMatchObject({
      type: 'mqtt',
      host: 'broker.example.com',
      port: 8883,
      tls: true,
      username: 'watcher',
      password: 'mq-pass',
      mode: 'subscribe',
      topic: 'plant/boiler/status',
      match: 'keyword',
      expected: 'online',
    });
    expect(item(p, 1)?.notes.join(' ')).toContain('waits for the timeout');
  });

  it('carry a JSONata query that is a plain path over as a JSON path', () => {
    const p = plan(
      monitor({
        id: 2,
        type: 'mqtt',
        hostname: 'broker.internal',
        mqttTopic: 'sensors/1',
        mqttCheckType: 'json-query',
        jsonPath: 'state.online',
        expectedValue: 'true',
      }),
    );
    expect(entry(p, 2)).toMatchObject({
      host: 'broker.internal',
      port: 1883,
      tls: false,
      match: 'json',
      jsonPath: '$.state.online',
      expected: 'true',
    });
  });

  it('are skipped, saying why, for a JSONata expression or MQTT over WebSocket', () => {
    const p = plan(
      monitor({
        id: 3,
        type: 'mqtt',
        hostname: 'broker.internal',
        mqttTopic: 't',
        mqttCheckType: 'json-query',
        jsonPath: '$count(items) > 2',
      }),
      monitor({ id: 4, type: 'mqtt', hostname: 'wss://broker.example.com/mqtt', mqttTopic: 't' }),
    );
    expect(entry(p, 3)).toBeUndefined();
    expect(item(p, 3)).toMatchObject({ outcome: 'skipped' });
    expect(item(p, 3)?.reason).toContain('is more than a path');
    expect(item(p, 4)?.reason).toContain('MQTT over WebSocket');
  });
});

describe('Kuma RabbitMQ monitors', () => {
  it('become AMQP logins on the first node’s host, saying the management API is not asked', () => {
    const p = plan(
      monitor({
        id: 5,
        type: 'rabbitmq',
        rabbitmqNodes: JSON.stringify([
          'https://rabbit1.example.com:15671',
          'https://rabbit2.example.com:15671',
        ]),
        rabbitmqUsername: 'monitor',
        rabbitmqPassword: 'rb-pass',
      }),
    );
    expect(entry(p, 5)).toMatchObject({
      type: 'amqp',
      host: 'rabbit1.example.com',
      port: 5671,
      tls: true,
      vhost: '/',
      username: 'monitor',
      password: 'rb-pass',
    });
    const notes = item(p, 5)?.notes.join(' ') ?? '';
    expect(notes).toContain('Only the first node');
    expect(notes).toContain('logs in over AMQP on port 5671');
  });
});

describe('Kuma SMTP monitors', () => {
  it('map secure to TLS from the start, nostarttls to none, and require STARTTLS otherwise', () => {
    const p = plan(
      monitor({ id: 6, type: 'smtp', hostname: 'mx.example.com', smtpSecurity: 'secure' }),
      monitor({
        id: 7,
        type: 'smtp',
        hostname: 'mx.example.com',
        port: 587,
        smtpSecurity: 'starttls',
      }),
      monitor({ id: 8, type: 'smtp', hostname: 'mx.example.com', smtpSecurity: 'nostarttls' }),
      monitor({ id: 9, type: 'smtp', hostname: 'mx.example.com', smtpSecurity: null }),
    );
    expect(entry(p, 6)).toMatchObject({ type: 'smtp', port: 465, security: 'tls' });
    expect(entry(p, 7)).toMatchObject({ port: 587, security: 'starttls' });
    expect(entry(p, 8)).toMatchObject({ port: 25, security: 'none' });
    expect(entry(p, 9)).toMatchObject({ security: 'starttls' });
    expect(item(p, 9)?.notes.join(' ')).toContain('Pagewatch requires it');
  });
});
