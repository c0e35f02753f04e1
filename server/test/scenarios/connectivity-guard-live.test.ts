import { Monitor } from '@pagewatch/contract';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCanaries } from '../../src/engine/connectivity-guard.js';
import { startAlertReceiver, type AlertReceiver } from '../fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { insertChannel, outbox } from '../support/outbox.js';

/** A loopback TCP listener standing in for "the internet": stopped, Pagewatch is offline. */
async function startCanary() {
  let server: net.Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer((socket) => socket.end());
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        resolve((s.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      if (!s) return resolve();
      s.close(() => resolve());
    });
  return { port, stop, start: () => listen(port).then(() => undefined) };
}

describe('PAGEWATCH_CANARY_TARGETS', () => {
  it('reads host:port lists, IPv6 in brackets, and refuses anything else', () => {
    expect(parseCanaries('1.1.1.1:53, [2606:4700::1111]:443,dns.google:443')).toEqual([
      { host: '1.1.1.1', port: 53 },
      { host: '2606:4700::1111', port: 443 },
      { host: 'dns.google', port: 443 },
    ]);
    expect(() => parseCanaries('1.1.1.1')).toThrow('"1.1.1.1" is not host:port');
    expect(() => parseCanaries('a:70000')).toThrow('"a:70000" is not host:port');
  });
});

/**
 * Issue 18 item 6, the self-connectivity guard, with real checks, a real receiver and two
 * loopback canaries: while both are stopped a failing check is recorded as unknown, the
 * status stays and nothing is alerted; once one answers, the failure counts again.
 */
describe.each(engines)('the connectivity guard on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let receiver: AlertReceiver;
  let canaries: Awaited<ReturnType<typeof startCanary>>[];

  beforeAll(async () => {
    target = await startTargetServer();
    receiver = await startAlertReceiver();
    canaries = [await startCanary(), await startCanary()];
    t = await startTestApp({
      engine,
      scheduler: true,
      listen: true,
      config: { canaryTargets: canaries.map((c) => `127.0.0.1:${c.port}`).join(',') },
    });
    await insertChannel(t.database, { url: receiver.url, name: 'Team', isDefault: true });
  });
  afterAll(async () => {
    await t.stop();
    await Promise.all([target.close(), receiver.close(), ...canaries.map((c) => c.stop())]);
  });

  const view = async (id: number) => (await t.inject(`/api/v1/monitors/${id}`)).json();

  it('suppresses alerts while every canary fails, and alerts again once one answers', async () => {
    const created = await post(t, '/api/v1/monitors', {
      type: 'http',
      name: 'Shop',
      url: `${target.url}/ok`,
      retries: 0,
      interval: 3600,
      timeout: 5,
    });
    const id = Monitor.parse(created.body).id;
    await expect.poll(async () => (await view(id)).status, { timeout: 10_000 }).toBe('up');

    // Pagewatch "loses its network": the canaries are unreachable and the target fails.
    await Promise.all(canaries.map((c) => c.stop()));
    target.setMode('down');
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect
      .poll(async () => (await view(id)).lastCheck?.errorCode, { timeout: 10_000 })
      .toBe('connectivity_unknown');
    const during = await view(id);
    expect(during.status).toBe('up');
    expect(during.lastCheck.outcome).toBe('down');
    expect(during.lastCheck.errorMessage).toMatch(/^Unknown: no canary target was reachable/);
    // The notifier polls every second: give it time to send anything it had.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await outbox(t.database)).filter((r) => r.orderKey === `m:${id}`)).toEqual([]);
    expect(receiver.delivered()).toEqual([]);

    // One canary answers again (after the 5 s a verdict is reused): the failure is real now.
    await canaries[0]!.start();
    await new Promise((resolve) => setTimeout(resolve, 5200));
    await post(t, `/api/v1/monitors/${id}/check-now`);
    await expect.poll(async () => (await view(id)).status, { timeout: 10_000 }).toBe('down');
    const [down] = await receiver.waitFor((got) => got.some((r) => r.kind === 'monitor.down'));
    expect(down).toMatchObject({ kind: 'monitor.down', monitorId: id });
    await canaries[1]!.start();
  }, 30_000);
});
