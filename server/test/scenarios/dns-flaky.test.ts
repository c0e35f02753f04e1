import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { splitInput, type MonitorRecord } from '../../src/domain/monitor.js';
import { runHttpCheck } from '../../src/engine/checks/http/index.js';
import { httpSpecOf } from '../../src/engine/checks/http/spec-of.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { systemClock } from '../../src/lib/clock.js';
import { startDnsServer, type DnsServer } from '../fixtures/dns-server.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { monitorInput } from '../support/factories.js';

/**
 * Issue: "checks survive DNS flakiness without a false DOWN when retries ≥ 1". A real HTTP
 * check through a real loopback DNS server that loses one question: the immediate re-check
 * resolves, and nobody is told the shop was down.
 */
describe('a DNS hiccup', () => {
  let dns: DnsServer;
  let target: TargetServer;
  let scheduler: Scheduler | null = null;

  beforeAll(async () => {
    target = await startTargetServer();
    dns = await startDnsServer({ 'shop.test': ['127.0.0.1'] });
  });
  afterEach(async () => scheduler?.stop());
  afterAll(async () => {
    await dns.close();
    await target.close();
  });

  function monitor(retries: number): MonitorRecord {
    const { common, settings } = splitInput(
      monitorInput({
        url: `http://shop.test:${target.port}/ok`,
        interval: 60,
        timeout: 5,
        retries,
      }),
    );
    return {
      id: 1,
      ...common,
      settings,
      state: { status: 'up', failures: 0 },
      statusChangedAt: null,
      lastCheck: null,
      recent: [],
      secret: null,
      lastDetails: null,
      createdAt: 0,
      updatedAt: 0,
    };
  }

  async function run(retries: number): Promise<ResultWrite[]> {
    const writes: ResultWrite[] = [];
    scheduler = new Scheduler({
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      concurrency: 4,
      run: (m, signal) =>
        runHttpCheck(
          {
            ...httpSpecOf(m, {}),
            timeoutMs: 5000,
            degradedThresholdMs: null,
            lookup: dns.lookup,
          },
          { signal },
        ),
      record: (w) => writes.push(w),
    });
    // The first question is lost: the resolver gives up after its 1 s timeout.
    dns.dropNext(1);
    scheduler.upsert(monitor(retries));
    await expect.poll(() => writes.length, { timeout: 8000 }).toBeGreaterThanOrEqual(retries + 1);
    // Give a re-check that should not happen time to show up.
    await new Promise((r) => setTimeout(r, retries === 0 ? 1500 : 200));
    return writes;
  }

  it('with retries 1 the lost lookup is re-checked at once and the monitor stays up', async () => {
    const writes = await run(1);
    expect(writes.map((w) => w.run.errorCode)).toEqual(['dns_timeout', null]);
    expect(writes.map((w) => w.status)).toEqual(['up', 'up']);
    expect(writes.every((w) => w.flip === null)).toBe(true);
    // The re-check came about a second after the failure, not a minute.
    expect(writes[1]!.at - writes[0]!.at).toBeLessThan(10_000);
  });

  it('with retries 0 the same hiccup is a DOWN: that is what retries are for', async () => {
    const writes = await run(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ status: 'down', flip: { from: 'up', to: 'down' } });
    expect(writes[0]!.run.errorCode).toBe('dns_timeout');
  });
});
