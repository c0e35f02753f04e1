import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMqttCheck, type MqttCheckSpec } from '../../src/engine/checks/mqtt/index.js';
import { secureContextFor } from '../../src/engine/checks/socket.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { testCertificates } from '../fixtures/certs.js';
import { startMqttBroker, type MqttBroker } from '../fixtures/mqtt-broker.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';

const certs = testCertificates();
const user = { username: 'watcher', password: 's3cret-broker-pass' };

let plain: MqttBroker;
let secure: MqttBroker;
let expired: MqttBroker;
let garbage: TcpServer;
let silent: TcpServer;

beforeAll(async () => {
  [plain, secure, expired, garbage, silent] = await Promise.all([
    startMqttBroker({ credentials: user }),
    startMqttBroker({ pair: certs.trusted, credentials: user }),
    startMqttBroker({ pair: certs.expired }),
    startTcpServer('banner', { banner: 'HTTP/1.1 400 Bad Request\r\n\r\n' }),
    startTcpServer('silent'),
  ]);
});

afterAll(async () => {
  await Promise.all([plain, secure, expired, garbage, silent].map((s) => s?.close()));
});

function check(port: number, overrides: Partial<MqttCheckSpec> = {}): Promise<CheckRun> {
  return runMqttCheck(
    {
      host: '127.0.0.1',
      port,
      ...user,
      tls: false,
      ignoreTrust: false,
      warnDays: 14,
      mode: 'connect',
      topic: '',
      match: 'keyword',
      jsonPath: '',
      expected: '',
      timeoutMs: 1500,
      degradedThresholdMs: null,
      secureContext: secureContextFor([certs.ca]),
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('connecting to an MQTT broker', () => {
  it('is up once the broker accepts the user, timing connect and the CONNACK', async () => {
    const run = await check(plain.port);
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.phases.connect).toBeGreaterThanOrEqual(0);
    expect(run.phases.tls).toBeNull();
    expect(run.phases.ttfb).toBeGreaterThanOrEqual(0);
  });

  it('is down with auth_failed when the password is wrong, naming the refusal', async () => {
    const run = await check(plain.port, { password: 'wrong' });
    expect(run.outcome).toBe('down');
    expect(run.errorCode).toBe('auth_failed');
    expect(run.errorMessage).toMatch(/refused the connection: the user name or password is wrong/);
  });

  it('over TLS captures the certificate and judges it like a TLS monitor', async () => {
    const run = await check(secure.port, { tls: true });
    expect(run.outcome).toBe('up');
    expect(run.phases.tls).toBeGreaterThanOrEqual(0);
    expect(run.certExpiresAt).toBe(certs.validTo);
    expect(run.details?.certificate?.trusted).toBe(true);
    expect(run.details?.assertions.map((a) => a.target)).toEqual(['expiry', 'name', 'trust']);
  });

  it('over TLS is down for an untrusted certificate unless trust is ignored', async () => {
    const untrusted = await runMqttCheck(
      { ...(await specFor(secure.port)), tls: true, secureContext: undefined },
      { signal: new AbortController().signal },
    );
    expect(untrusted.errorCode).toBe('tls_cert_untrusted');
    expect(untrusted.details?.certificate).not.toBeNull();
    const ignored = await check(secure.port, {
      tls: true,
      ignoreTrust: true,
      secureContext: undefined,
    });
    expect(ignored.outcome).toBe('up');
  });

  it('over TLS is down for an expired certificate, and for a name it is not valid for', async () => {
    const run = await check(expired.port, { tls: true });
    expect(run.errorCode).toBe('tls_cert_expired');
    expect(run.certExpiresAt).toBe(certs.expiredAt);
    const other = await startMqttBroker({ pair: certs.wrongHost });
    try {
      const misnamed = await check(other.port, { tls: true });
      expect(misnamed.errorCode).toBe('tls_hostname_mismatch');
      expect(misnamed.errorMessage).toMatch(
        /not valid for 127\.0\.0\.1 \(it is for DNS:other\.example\)/,
      );
    } finally {
      await other.close();
    }
  });

  it('is down with connect_refused when nothing listens', async () => {
    const run = await check(await refusedPort());
    expect(run.errorCode).toBe('connect_refused');
  });

  it('is down with protocol_error when the peer does not speak MQTT', async () => {
    const run = await check(garbage.port);
    expect(run.outcome).toBe('down');
    expect(['protocol_error', 'connection_reset']).toContain(run.errorCode);
    expect(run.errorMessage).not.toMatch(/at .*\.js/);
  });

  it('is down with timeout when the peer never answers the CONNECT', async () => {
    const run = await check(silent.port, { timeoutMs: 400 });
    expect(run.errorCode).toBe('timeout');
    expect(run.errorMessage).toMatch(/within 400 ms/);
  });
});

describe('waiting for a message', () => {
  it('is up when a retained message on the topic contains the keyword', async () => {
    await plain.publish('plant/boiler/status', 'boiler ok, 71 °C', true);
    const run = await check(plain.port, {
      mode: 'subscribe',
      topic: 'plant/boiler/status',
      expected: 'ok',
    });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions).toEqual([
      expect.objectContaining({ kind: 'keyword', passed: true, actual: 'boiler ok, 71 °C' }),
    ]);
    expect(run.responseSize).toBe(Buffer.byteLength('boiler ok, 71 °C'));
  });

  it('is down with keyword_missing, showing what came, when no message has the keyword', async () => {
    await plain.publish('plant/pump/status', 'pump FAILED', true);
    const run = await check(plain.port, {
      mode: 'subscribe',
      topic: 'plant/+/status',
      expected: 'running',
      timeoutMs: 500,
    });
    expect(run.errorCode).toBe('keyword_missing');
    expect(run.errorMessage).toMatch(
      /containing “running” but got “(pump FAILED|boiler ok, 71 °C)”/,
    );
  });

  it('compares a JSON path of the message with the expected value', async () => {
    await plain.publish('sensors/1', JSON.stringify({ state: { online: true }, t: 20.5 }), true);
    const ok = await check(plain.port, {
      mode: 'subscribe',
      topic: 'sensors/1',
      match: 'json',
      jsonPath: '$.state.online',
      expected: 'true',
    });
    expect(ok.outcome).toBe('up');
    const wrong = await check(plain.port, {
      mode: 'subscribe',
      topic: 'sensors/1',
      match: 'json',
      jsonPath: '$.t',
      expected: '21',
      timeoutMs: 400,
    });
    expect(wrong.errorCode).toBe('json_assertion');
    expect(wrong.errorMessage).toBe('Expected $.t to be “21” but it is “20.5”');
  });

  it('is down with timeout naming the topic when nothing arrives', async () => {
    const run = await check(plain.port, {
      mode: 'subscribe',
      topic: 'quiet/topic',
      timeoutMs: 400,
    });
    expect(run.errorCode).toBe('timeout');
    expect(run.errorMessage).toBe('No message arrived on “quiet/topic” within 400 ms');
  });

  it('in roundtrip mode publishes a probe and is up when it comes back', async () => {
    const run = await check(secure.port, {
      tls: true,
      mode: 'roundtrip',
      topic: 'pagewatch/probe',
    });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions.at(-1)).toMatchObject({ target: 'probe', passed: true });
  });

  it('keeps the password out of what it reports', async () => {
    const run = await check(plain.port, { password: 'wrong-but-long-password' });
    expect(JSON.stringify(run)).not.toContain('wrong-but-long-password');
  });
});

async function specFor(port: number): Promise<MqttCheckSpec> {
  return {
    host: '127.0.0.1',
    port,
    ...user,
    tls: false,
    ignoreTrust: false,
    warnDays: 14,
    mode: 'connect',
    topic: '',
    match: 'keyword',
    jsonPath: '',
    expected: '',
    timeoutMs: 1500,
    degradedThresholdMs: null,
  };
}

const mqttUrl = process.env.PAGEWATCH_TEST_MQTT_URL || undefined;
if (!mqttUrl) {
  console.warn(
    'The MQTT suite against a real broker did NOT run: set PAGEWATCH_TEST_MQTT_URL=mqtt://127.0.0.1:1883',
  );
}

describe.runIf(mqttUrl)('against the real broker (PAGEWATCH_TEST_MQTT_URL)', () => {
  const url = new URL(mqttUrl ?? 'mqtt://127.0.0.1:1883');
  const real = (overrides: Partial<MqttCheckSpec>) =>
    check(Number(url.port || 1883), {
      host: url.hostname,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      ...overrides,
    });

  it('connects', async () => {
    expect((await real({})).outcome).toBe('up');
  });

  it('gets its probe back', async () => {
    const run = await real({ mode: 'roundtrip', topic: `pagewatch/test/${process.pid}` });
    expect(run.outcome).toBe('up');
  });
});
