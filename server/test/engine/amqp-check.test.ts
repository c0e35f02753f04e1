import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAmqpCheck, type AmqpCheckSpec } from '../../src/engine/checks/amqp/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';

/*
 * There is no AMQP 0-9-1 broker written in JavaScript to start inside the test, so the broker's
 * side runs against the real RabbitMQ (PAGEWATCH_TEST_AMQP_URL); the failures a fresh machine
 * can still see (refused, silent, another protocol, a hang-up) run against loopback peers here.
 */

function check(port: number, overrides: Partial<AmqpCheckSpec> = {}): Promise<CheckRun> {
  return runAmqpCheck(
    {
      host: '127.0.0.1',
      port,
      vhost: '/',
      username: 'guest',
      password: 'guest',
      tls: false,
      ignoreTrust: false,
      warnDays: 14,
      queue: '',
      maxDepth: null,
      timeoutMs: 1500,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('peers that are not a working broker', () => {
  let garbage: TcpServer;
  let silent: TcpServer;
  let hangUp: TcpServer;
  let otherVersion: TcpServer;

  beforeAll(async () => {
    [garbage, silent, hangUp, otherVersion] = await Promise.all([
      startTcpServer('banner', { banner: 'SSH-2.0-OpenSSH_9.6\r\n' }),
      startTcpServer('silent'),
      startTcpServer('accept-close'),
      // What a broker of another AMQP version answers our header with.
      startTcpServer('banner', { banner: Buffer.from([0x41, 0x4d, 0x51, 0x50, 1, 1, 0, 10]) }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([garbage, silent, hangUp, otherVersion].map((s) => s?.close()));
  });

  it('is down with connect_refused when nothing listens', async () => {
    const run = await check(await refusedPort());
    expect(run.errorCode).toBe('connect_refused');
    expect(run.latencyMs).toBeNull();
  });

  it('is down with protocol_error when the peer speaks something else', async () => {
    const run = await check(garbage.port);
    expect(run.errorCode).toBe('protocol_error');
    expect(run.errorMessage).toMatch(/did not answer as an AMQP 0-9-1 broker: its first bytes/);
  });

  it('is down with protocol_error naming another AMQP version', async () => {
    const run = await check(otherVersion.port);
    expect(run.errorCode).toBe('protocol_error');
    expect(run.errorMessage).toMatch(/another AMQP version/);
  });

  it('is down with timeout when the peer never answers the protocol header', async () => {
    const run = await check(silent.port, { timeoutMs: 400 });
    expect(run.errorCode).toBe('timeout');
    expect(run.errorMessage).toMatch(/within 400 ms/);
  });

  it('is down with connection_reset when the peer hangs up at once', async () => {
    const run = await check(hangUp.port);
    expect(run.errorCode).toBe('connection_reset');
  });
});

const amqpUrl = process.env.PAGEWATCH_TEST_AMQP_URL || undefined;
if (!amqpUrl) {
  console.warn(
    'The RabbitMQ suite against a real broker did NOT run: set PAGEWATCH_TEST_AMQP_URL=amqp://guest:guest@127.0.0.1:5672',
  );
}

describe.runIf(amqpUrl)('against the real RabbitMQ (PAGEWATCH_TEST_AMQP_URL)', () => {
  const url = new URL(amqpUrl ?? 'amqp://guest:guest@127.0.0.1:5672');
  const queue = `pagewatch-test-${process.pid}-${Date.now()}`;
  let connection: amqplib.ChannelModel;
  const real = (overrides: Partial<AmqpCheckSpec> = {}) =>
    check(Number(url.port || 5672), {
      host: url.hostname,
      username: decodeURIComponent(url.username || 'guest'),
      password: decodeURIComponent(url.password || 'guest'),
      ...overrides,
    });

  beforeAll(async () => {
    connection = await amqplib.connect(amqpUrl ?? '');
    const channel = await connection.createChannel();
    await channel.assertQueue(queue, { autoDelete: false, durable: false });
    for (let i = 0; i < 3; i++) channel.sendToQueue(queue, Buffer.from(`job ${i}`));
    // Publishing is asynchronous; the depth counts once the broker has them.
    await channel.checkQueue(queue);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await channel.close();
  });

  afterAll(async () => {
    if (!connection) return;
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
    await connection.close();
  });

  it('is up once authenticated on the virtual host, timing connect and the first answer', async () => {
    const run = await real();
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(run.phases.connect).toBeGreaterThanOrEqual(0);
    expect(run.phases.ttfb).toBeGreaterThanOrEqual(0);
  });

  it('is down with auth_failed for a wrong password, and keeps the password out', async () => {
    const run = await real({ password: 'not-the-password' });
    expect(run.errorCode).toBe('auth_failed');
    expect(run.errorMessage).toMatch(/ACCESS_REFUSED|wrong user name or password/);
    expect(JSON.stringify(run)).not.toContain('not-the-password');
  });

  it('is down with auth_failed for a virtual host it may not open', async () => {
    const run = await real({ vhost: 'no-such-vhost' });
    expect(run.errorCode).toBe('auth_failed');
    expect(run.errorMessage).toMatch(/virtual host “no-such-vhost”/);
  });

  it('reports the queue depth and is up below the maximum', async () => {
    const run = await real({ queue, maxDepth: 5 });
    expect(run.outcome).toBe('up');
    expect(run.details?.assertions).toEqual([
      {
        kind: 'queue',
        target: queue,
        expected: 'at most 5 ready messages',
        actual: '3 ready messages, 0 consumers',
        passed: true,
        soft: false,
      },
    ]);
  });

  it('is down with queue_too_deep above the maximum', async () => {
    const run = await real({ queue, maxDepth: 2 });
    expect(run.errorCode).toBe('queue_too_deep');
    expect(run.errorMessage).toBe(
      `The queue “${queue}” holds 3 ready messages, more than the 2 allowed`,
    );
    expect(run.details?.assertions[0]?.passed).toBe(false);
  });

  it('is down with queue_missing for a queue that does not exist, without creating it', async () => {
    const run = await real({ queue: `${queue}-missing` });
    expect(run.errorCode).toBe('queue_missing');
    const again = await real({ queue: `${queue}-missing` });
    expect(again.errorCode).toBe('queue_missing');
  });
});
