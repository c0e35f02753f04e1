import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { addProbeLocation, startProbe, type ProbeRun } from '../support/probe-process.js';
import { monitorInput } from '../support/factories.js';

const INTERVAL = 10;

async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The local ports of this process's TCP sockets (Linux /proc): a request whose peer port is
 * one of them came from the server's own scheduler (`local`), any other from the probe.
 */
function ownPorts(): Set<number> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/self/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9]!)) ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

interface Received {
  kind: string;
  text: string;
}

/**
 * The optional REGIONAL alert to a real receiver (issue 16 item 4): a monitor checked from the
 * server's scheduler (`local`) and a real probe process fails only from the probe's location;
 * a loopback webhook gets exactly one REGIONAL message naming that location, then one recovery
 * when it is up everywhere again, and never a DOWN.
 */
describe.each(engines)('a REGIONAL alert to a webhook on %s', (engine) => {
  let t: TestApp;
  let target: http.Server;
  let receiver: http.Server;
  let failRemote = false;
  const received: Received[] = [];
  const running: ProbeRun[] = [];
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-probe-regional-alert-'));

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      const local = ownPorts().has(req.socket.remotePort ?? -1);
      res.statusCode = failRemote && !local ? 503 : 200;
      res.end(local ? 'local' : 'probe');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { event: { kind: string }; text: string; title: string };
        received.push({ kind: parsed.event.kind, text: `${parsed.title}\n${parsed.text}` });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    t = await startTestApp({ engine, listen: true, scheduler: true });
  }, 60_000);

  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await t?.stop();
    target?.closeAllConnections();
    target?.close();
    receiver?.closeAllConnections();
    receiver?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  it('sends one REGIONAL naming the failing location, then one recovery', async () => {
    const port = (s: http.Server) => (s.address() as AddressInfo).port;
    const channel = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: {
        kind: 'webhook',
        name: 'receiver',
        isDefault: true,
        config: { url: `http://127.0.0.1:${port(receiver)}/hook` },
      },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const { locationId, token } = await addProbeLocation(t, 'Island', 'island-1');
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({
        url: `http://127.0.0.1:${port(target)}/`,
        interval: INTERVAL,
        timeout: 3,
        retries: 0,
        alerts: { notifyRegional: true },
      }),
    });
    expect(m.statusCode, m.body).toBe(201);
    const id = m.json().id as number;
    const chosen = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${id}/locations`,
      payload: { locations: ['local', locationId], quorum: null },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    startProbe(['--server', t.url, '--token', token, '--spool-dir', spool], running);

    const status = async () => (await t.inject(`/api/v1/monitors/${id}`)).json().status as string;
    const figures = async () =>
      (await t.inject(`/api/v1/monitors/${id}/locations`)).json().locations as {
        id: string;
        status: string;
      }[];
    // Both locations report and the monitor is up.
    await until('both locations up', async () => {
      const f = await figures();
      return f.length === 2 && f.every((l) => l.status === 'up') && (await status()) === 'up';
    });

    failRemote = true;
    await until('REGIONAL', async () => (await status()) === 'regional');
    const regional = await until('the REGIONAL message', () =>
      received.find((r) => r.kind === 'monitor.regional'),
    );
    expect(regional?.text).toContain('Island');
    expect(regional?.text).not.toContain('local');

    failRemote = false;
    await until('up again', async () => (await status()) === 'up');
    await until('the recovery message', () => received.some((r) => r.kind === 'monitor.up'));
    // Two more rounds decided up everywhere: nothing further arrives.
    const checked = async () => (await t.inject(`/api/v1/monitors/${id}`)).json().lastCheck?.at;
    for (let i = 0; i < 2; i++) {
      const before = await checked();
      await until('another round', async () => (await checked()) !== before);
    }
    expect(received.filter((r) => r.kind === 'monitor.regional')).toHaveLength(1);
    expect(received.filter((r) => r.kind === 'monitor.up')).toHaveLength(1);
    expect(received.filter((r) => r.kind === 'monitor.down')).toHaveLength(0);
  }, 240_000);
});
