import { deliveryPolicy } from '@pagewatch/contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { createMetrics } from '../../src/lib/metrics.js';
import { ChannelError, type Channel } from '../../src/notify/channel.js';
import { Dispatcher, type DispatcherOptions } from '../../src/notify/dispatcher.js';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { insertChannel, outbox, queueDelivery } from '../support/outbox.js';

const box = new SecretBox(Buffer.alloc(32, 7));
const SECRET = 'tok-very-secret-123';

/**
 * A plain JSON POST to the channel's URL: the dispatcher's peer here is a real loopback
 * receiver; the channel kinds themselves are tested on their own.
 */
const loopbackHook: Channel = {
  kind: 'webhook',
  async send(target, event, ctx) {
    const res = await fetch(String(target.config.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: String(target.secrets.token) },
      body: JSON.stringify({ deliveryId: ctx.deliveryId, event }),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (!res.ok) {
      const retryAfter = res.headers.get('retry-after');
      throw new ChannelError(
        `HTTP ${res.status} from ${String(target.config.url)}?token=${String(target.secrets.token)}`,
        res.status >= 400 && res.status < 500 && res.status !== 429,
        retryAfter === null ? null : Number(retryAfter) * 1000,
      );
    }
  },
};

/** A clock the test moves by hand: retry schedules are checked without waiting for them. */
function manualClock(start: number) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe.each(engines)('the notifier on %s', (engine) => {
  let target: TestTarget;
  let database: Database;
  let repos: Repositories;
  let receiver: AlertReceiver;
  let channel: number;
  const running: Dispatcher[] = [];

  beforeAll(async () => {
    target = await testTarget(engine);
    database = await openDatabase(target.target);
    repos = repositories(database);
  });
  afterAll(async () => {
    await database.close();
    await target.cleanup();
  });
  beforeEach(async () => {
    receiver = await startAlertReceiver();
    channel = await insertChannel(database, { url: receiver.url, secrets: { token: SECRET }, box });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.stop()));
    await receiver.close();
    // Each test reads its own channel's rows only; older rows go with their channel.
    await database.db.deleteFrom('notification_channels').execute();
  });

  function dispatcher(
    clock: { now(): number } = { now: () => Date.now() },
    options: Partial<DispatcherOptions> = {},
    r: Repositories = repos,
  ) {
    const d = new Dispatcher(
      {
        deliveries: r.deliveries,
        outbox: r.outbox,
        secrets: box,
        clock,
        logger: pino({ level: 'silent' }),
        metrics: createMetrics(),
        channels: { webhook: loopbackHook },
      },
      { pollMs: 20, timeoutMs: 2000, ...options },
    );
    running.push(d);
    d.start();
    return d;
  }

  const rows = async () => (await outbox(database)).filter((d) => d.channelId === channel);

  it('sends a queued delivery once and marks it sent', async () => {
    const id = await queueDelivery(database, channel, 'm:1', 'monitor.down', Date.now());
    dispatcher();
    await receiver.waitFor((got) => got.length === 1);
    await expect.poll(async () => (await rows())[0]?.state).toBe('sent');
    expect(receiver.delivered()[0]).toMatchObject({ kind: 'monitor.down', deliveryId: id });
    expect((await rows())[0]).toMatchObject({ attempts: 1, lastError: null });
  });

  it('retries transient failures 10 s × 3ⁿ apart, then gives up after 6 attempts, secrets blanked', async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1));
    const id = await queueDelivery(database, channel, 'm:2', 'monitor.down', clock.now());
    receiver.failNext(100, 503);
    dispatcher(clock);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= deliveryPolicy.attempts; attempt++) {
      await expect.poll(async () => (await rows())[0]?.attempts, { timeout: 5000 }).toBe(attempt);
      const row = (await rows())[0]!;
      if (attempt < deliveryPolicy.attempts) {
        expect(row.state).toBe('retrying');
        waits.push(row.nextAttemptAt! - clock.now());
        // Not due a millisecond early: the claim refuses it.
        expect(
          await repos.deliveries.claim(id, 'test', row.nextAttemptAt! - 1, clock.now()),
        ).toBeNull();
        clock.advance(row.nextAttemptAt! - clock.now());
      }
    }
    expect(waits).toEqual([10_000, 30_000, 90_000, 270_000, 810_000]);
    const last = (await rows())[0]!;
    expect(last).toMatchObject({ state: 'failed', nextAttemptAt: null });
    expect(last.lastError).toContain('HTTP 503');
    expect(last.lastError).not.toContain(SECRET);
    expect(receiver.requests).toHaveLength(6);
  });

  it('gives up at once on a permanent error, and honours Retry-After on a transient one', async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1));
    await queueDelivery(database, channel, 'm:3', 'monitor.down', clock.now());
    await queueDelivery(database, channel, 'm:4', 'monitor.down', clock.now());
    receiver.failNext(1, 404);
    dispatcher(clock, { perChannel: 1 });
    await expect.poll(async () => (await rows()).map((r) => r.state)).toEqual(['failed', 'sent']);
    expect((await rows())[0]!.attempts).toBe(1);

    await queueDelivery(database, channel, 'm:5', 'monitor.down', clock.now());
    receiver.failNext(1, 429, 120);
    await expect.poll(async () => (await rows())[2]?.state).toBe('retrying');
    expect((await rows())[2]!.nextAttemptAt).toBe(clock.now() + 120_000);
  });

  it('keeps each stream in order under retries: the down is retried and the up waits for it', async () => {
    const now = Date.now();
    await queueDelivery(database, channel, 'm:6', 'monitor.down', now);
    await queueDelivery(database, channel, 'm:6', 'monitor.up', now);
    receiver.failNext(2, 500);
    const policy = { ...deliveryPolicy, baseDelayMs: 30 };
    dispatcher(undefined, { policy });
    await receiver.waitFor((got) => got.length === 2);
    expect(receiver.requests.map((r) => `${r.kind} ${r.status}`)).toEqual([
      'monitor.down 500',
      'monitor.down 500',
      'monitor.down 200',
      'monitor.up 200',
    ]);
  });

  it('a delivery that failed for good unblocks the next one of its stream', async () => {
    const now = Date.now();
    await queueDelivery(database, channel, 'm:7', 'monitor.down', now);
    await queueDelivery(database, channel, 'm:7', 'monitor.up', now);
    receiver.failNext(1, 400);
    dispatcher();
    await receiver.waitFor((got) => got.length === 1);
    expect(receiver.requests.map((r) => `${r.kind} ${r.status}`)).toEqual([
      'monitor.down 400',
      'monitor.up 200',
    ]);
  });

  it('sends at most perChannel deliveries to one channel at a time', async () => {
    const now = Date.now();
    for (let i = 0; i < 12; i++)
      await queueDelivery(database, channel, `m:${100 + i}`, 'monitor.down', now);
    receiver.setDelay(40);
    dispatcher(undefined, { perChannel: 3 });
    await receiver.waitFor((got) => got.length === 12);
    expect(receiver.maxConcurrent()).toBeLessThanOrEqual(3);
    expect(receiver.maxConcurrent()).toBeGreaterThan(1);
  });

  it('two notifiers on one database never send the same delivery twice (compare-and-set)', async () => {
    const second = await openDatabase(target.target);
    try {
      const now = Date.now();
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) {
        ids.push(await queueDelivery(database, channel, `m:${200 + i}`, 'monitor.down', now));
      }
      receiver.setDelay(5);
      dispatcher(undefined, { perChannel: 8 });
      dispatcher(undefined, { perChannel: 8 }, repositories(second));
      await receiver.waitFor((got) => got.length >= 40);
      await expect.poll(async () => (await rows()).every((r) => r.state === 'sent')).toBe(true);
      const got = receiver.delivered().map((r) => r.deliveryId);
      expect(got.sort((a, b) => a! - b!)).toEqual(ids);
    } finally {
      await Promise.all(running.splice(0).map((d) => d.stop()));
      await second.close();
    }
  });
});
