import { execFileSync, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundAt } from '../../src/domain/schedule.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { addProbeLocation, startProbe, type ProbeRun } from '../support/probe-process.js';
import { monitorInput } from '../support/factories.js';

async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const isRoot = process.getuid?.() === 0;
const hasIp = spawnSync('ip', ['-V']).status === 0;
const why = !isRoot
  ? 'not root: creating a network namespace needs root (CI runs as root)'
  : !hasIp
    ? 'the `ip` command (iproute2) is missing'
    : null;
if (why) console.warn(`skipping the REGIONAL network-namespace test: ${why}`);

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] });

const INTERVAL = 10;

/**
 * REGIONAL for real: a probe runs in a network namespace the test makes (a veth pair on a
 * private /30 that exists only between its two ends). Its path to the target is cut with an
 * `unreachable` route inside the namespace while the server's own location (`local`) still
 * reaches it: REGIONAL within two rounds, never DOWN. Then the target goes away for everyone:
 * DOWN in the first round after.
 */
describe.skipIf(why !== null).each(engines)(
  'a location that cannot reach the target on %s',
  (engine) => {
    const tag = randomInt(0x1000, 0xffff).toString(16);
    const octet = randomInt(1, 255);
    const ns = `pw-regional-${tag}`;
    const hostIf = `pwr${tag}h`;
    const nsIf = `pwr${tag}n`;
    /** The host end (the server's forwarder listens here) and the probe's end of the /30. */
    const hostAddr = `10.200.${octet}.1`;
    const nsAddr = `10.200.${octet}.2`;
    /** The target's own address on the host, routed to from the namespace through the veth. */
    const targetAddr = `10.201.${octet}.1`;
    let home: TestApp;
    let server: TestApp;
    let target: http.Server;
    let forwarder: net.Server;
    let forwardUrl = '';
    const running: ProbeRun[] = [];
    const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-probe-regional-'));
    let locationId = '';
    let token = '';
    let monitorId = 0;

    const status = async (): Promise<string> =>
      (await home.inject(`/api/v1/monitors/${monitorId}`)).json().status;
    const flips = async () =>
      (
        await sql<{ at: number; to_status: string; message: string | null }>`
        select at, to_status, message from status_flips where monitor_id = ${monitorId}
        order by id`.execute(home.database.db)
      ).rows.map((r) => ({ ...r, at: Number(r.at) }));

    beforeAll(async () => {
      ip('netns', 'add', ns);
      ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
      ip('link', 'set', nsIf, 'netns', ns);
      ip('addr', 'add', `${hostAddr}/30`, 'dev', hostIf);
      ip('addr', 'add', `${targetAddr}/32`, 'dev', hostIf);
      ip('link', 'set', hostIf, 'up');
      ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${nsAddr}/30`, 'dev', nsIf);
      ip('netns', 'exec', ns, 'ip', 'link', 'set', nsIf, 'up');
      ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
      ip('netns', 'exec', ns, 'ip', 'route', 'add', `${targetAddr}/32`, 'via', hostAddr);

      target = http.createServer((_req, res) => res.end('ok'));
      await new Promise<void>((r) => target.listen(0, targetAddr, r));
      const targetUrl = `http://${targetAddr}:${(target.address() as AddressInfo).port}/`;

      home = await startTestApp({ engine });
      ({ locationId, token } = await addProbeLocation(home, 'Island', 'island-1'));
      // No retries: one round whose verdict is down is a DOWN (the interval + 10 s).
      const m = await home.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({ url: targetUrl, interval: INTERVAL, timeout: 3, retries: 0 }),
      });
      monitorId = m.json().id;
      await sql`insert into monitor_locations (monitor_id, location_id)
      values (${monitorId}, 'local'), (${monitorId}, ${locationId})`.execute(home.database.db);
      // The process that checks as `local` starts once the monitor's locations are stored.
      server = await startTestApp({ engine, sharing: home, scheduler: true, listen: true });
      // The server listens on loopback, which the namespace cannot see: a forwarder on the veth.
      const serverPort = Number(new URL(server.url).port);
      forwarder = net.createServer((inbound) => {
        const outbound = net.connect(serverPort, '127.0.0.1');
        inbound.pipe(outbound).pipe(inbound);
        inbound.on('error', () => outbound.destroy());
        outbound.on('error', () => inbound.destroy());
      });
      await new Promise<void>((r) => forwarder.listen(0, hostAddr, r));
      forwardUrl = `http://${hostAddr}:${(forwarder.address() as AddressInfo).port}`;
    }, 120_000);

    afterAll(async () => {
      for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await Promise.all(running.map((p) => p.exited));
      forwarder?.close();
      await server?.stop();
      await home?.stop();
      target?.closeAllConnections();
      target?.close();
      // Deleting the namespace removes its veth end and with it the pair; the host end is
      // deleted too in case the move into the namespace never happened.
      spawnSync('ip', ['netns', 'del', ns]);
      spawnSync('ip', ['link', 'del', hostIf]);
      fs.rmSync(spool, { recursive: true, force: true });
    });

    it('shows REGIONAL, never DOWN, while only the namespace fails; DOWN when all fail', async () => {
      const probe = startProbe(
        ['--server', forwardUrl, '--token', token, '--spool-dir', spool],
        running,
        { wrap: ['ip', 'netns', 'exec', ns] },
      );
      const located = async (where: string) =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from check_results
            where monitor_id = ${monitorId} and location_id = ${where}`.execute(home.database.db)
          ).rows[0]!.n,
        );
      // Starting the bin from the sources takes a while on a loaded machine.
      await until(
        'results from both locations',
        async () => (await located(locationId)) > 0 && (await located('local')) > 0,
        120_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; probe said: ${probe.err()}`);
      });
      await until('the monitor up', async () => (await status()) === 'up');

      ip('netns', 'exec', ns, 'ip', 'route', 'replace', 'unreachable', `${targetAddr}/32`);
      const blockedAt = Date.now();
      await until('REGIONAL', async () => (await status()) === 'regional', 6 * INTERVAL * 1000);
      const regional = (await flips()).find((f) => f.to_status === 'regional')!;
      console.log(`REGIONAL decided ${regional.at - blockedAt} ms after the path was cut`);
      // Within two rounds: decided in the round the cut began in or one of the next two.
      expect(
        roundAt(monitorId, INTERVAL * 1000, regional.at) -
          roundAt(monitorId, INTERVAL * 1000, blockedAt),
      ).toBeLessThanOrEqual(2);
      expect(regional.message).toContain('Island');
      // Two more rounds with the namespace cut off: still REGIONAL, never DOWN.
      const settled = roundAt(monitorId, INTERVAL * 1000, Date.now()) + 2;
      await until(
        'two more rounds',
        () => roundAt(monitorId, INTERVAL * 1000, Date.now()) > settled,
        4 * INTERVAL * 1000,
      );
      const timeline = async (from: number) => {
        const results = await sql<{ location_id: string; at: number; outcome: number }>`
          select location_id, at, outcome from check_results
          where monitor_id = ${monitorId} and at >= ${from - 30_000} order by at`.execute(
          home.database.db,
        );
        return [
          ...results.rows.map(
            (r) => `${Number(r.at) - from} ${r.location_id} outcome ${r.outcome}`,
          ),
          ...(await flips()).map((f) => `${f.at - from} flip → ${f.to_status}: ${f.message}`),
        ].join('\n');
      };
      expect(await status()).toBe('regional');
      const cutOff = (await flips()).map((f) => f.to_status);
      if (cutOff.includes('down'))
        console.log(`timeline (ms from the cut):\n${await timeline(blockedAt)}`);
      expect(cutOff).not.toContain('down');

      // Now nobody reaches it.
      target.closeAllConnections();
      await new Promise((r) => target.close(r));
      const goneAt = Date.now();
      await until('DOWN', async () => (await status()) === 'down', 6 * INTERVAL * 1000);
      const down = (await flips()).find((f) => f.to_status === 'down')!;
      console.log(`DOWN decided ${down.at - goneAt} ms after the target went away`);
      // The first round due after the target went away decides it (interval + the batch's way).
      expect(
        roundAt(monitorId, INTERVAL * 1000, down.at) - roundAt(monitorId, INTERVAL * 1000, goneAt),
      ).toBeLessThanOrEqual(1);
    }, 400_000);
  },
);
