import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
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

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const INTERVAL = 10;

/**
 * The server goes away while the probe keeps checking; after it is back every round of the
 * outage is in history exactly once and no status flipped; a batch sent twice counts once;
 * a token rotation with the probe restarted on the new token misses no round.
 */
describe.each(engines)('a probe cut off from the server on %s', (engine) => {
  let home: TestApp;
  let server: TestApp | null = null;
  let port = 0;
  let target: http.Server;
  let targetUrl = '';
  const running: ProbeRun[] = [];
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-probe-outage-'));
  let locationId = '';
  let probeId = 0;
  let token = '';
  const monitors: number[] = [];

  const rounds = async () =>
    (
      await sql<{ monitor_id: number; location_round: number; n: number }>`
        select monitor_id, location_round, count(*) as n from check_results
        where location_id = ${locationId} group by monitor_id, location_round`.execute(
        home.database.db,
      )
    ).rows.map((r) => ({
      ...r,
      monitor_id: Number(r.monitor_id),
      location_round: Number(r.location_round),
      n: Number(r.n),
    }));

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    home = await startTestApp({ engine });
    port = await freePort();
    server = await startTestApp({ engine, sharing: home, listen: true, port });
    ({ locationId, token, probeId } = await addProbeLocation(home, 'Sydney', 'syd-1'));
    for (let i = 0; i < 2; i++) {
      const m = await home.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({ url: `${targetUrl}/${i}`, interval: INTERVAL, timeout: 5 }),
      });
      monitors.push(m.json().id);
      await sql`insert into monitor_locations (monitor_id, location_id) values (${m.json().id}, ${locationId})`.execute(
        home.database.db,
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await server?.stop();
    await home?.stop();
    target?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  it('loses no round while the server is away and flips nothing with late results', async () => {
    const probe = startProbe(
      ['--server', `http://127.0.0.1:${port}`, '--token', token, '--spool-dir', spool],
      running,
    );
    await until(
      'results of both monitors',
      async () => new Set((await rounds()).map((r) => r.monitor_id)).size === 2,
    );
    await server!.stop();
    server = null;
    // Longer than two intervals: each monitor has rounds that can only arrive from the spool.
    await new Promise((r) => setTimeout(r, 2.5 * INTERVAL * 1000));
    server = await startTestApp({ engine, sharing: home, listen: true, port });
    await until('the reconnection', () => probe.err().split('connected:').length > 2);
    const now = Date.now();
    // Live results come first after a reconnection, the spool right after them.
    const complete = (got: Awaited<ReturnType<typeof rounds>>) =>
      monitors.every((id) => {
        const mine = got.filter((r) => r.monitor_id === id).map((r) => r.location_round);
        const last = roundAt(id, INTERVAL * 1000, now) - 1;
        return (
          mine.length > 0 &&
          Math.max(...mine) >= last &&
          mine.length === Math.max(...mine) - Math.min(...mine) + 1
        );
      });
    await until('every round up to now', async () => complete(await rounds()), 40_000).catch(
      () => null,
    );
    const got = await rounds();
    for (const id of monitors) {
      const mine = got
        .filter((r) => r.monitor_id === id)
        .map((r) => r.location_round)
        .sort((a, b) => a - b);
      const first = mine[0]!;
      const last = mine[mine.length - 1]!;
      expect(mine).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
      expect(got.filter((r) => r.monitor_id === id).every((r) => r.n === 1)).toBe(true);
    }
    const flips = await sql<{
      n: number;
    }>`select count(*) as n from status_flips where monitor_id in (${sql.join(monitors)}) and to_status <> 'up'`.execute(
      home.database.db,
    );
    expect(Number(flips.rows[0]!.n)).toBe(0);
  }, 120_000);

  it('counts a batch delivered twice once', async () => {
    const id = monitors[0]!;
    const due = dueOf(id, INTERVAL * 1000, roundAt(id, INTERVAL * 1000, Date.now()) - 1);
    const batch = {
      items: [
        {
          monitorId: id,
          roundAt: new Date(due).toISOString(),
          startedAt: new Date(due).toISOString(),
          result: {
            outcome: 'up',
            latencyMs: 1,
            phases: { dns: null, connect: null, tls: null, ttfb: null, download: null },
            httpStatus: 200,
            errorCode: null,
            errorMessage: null,
            responseSize: 2,
            certExpiresAt: null,
          },
        },
      ],
    };
    const send = () =>
      server!.app.inject({
        method: 'POST',
        url: '/api/probe/v1/results',
        headers: { authorization: `Bearer ${token}`, 'pagewatch-probe-protocol': '1' },
        payload: batch,
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ accepted: 0, duplicates: 1 });
    const round = roundAt(id, INTERVAL * 1000, due);
    expect(
      (await rounds()).filter((r) => r.monitor_id === id && r.location_round === round),
    ).toEqual([{ monitor_id: id, location_round: round, n: 1 }]);
  });

  it('rotates the token without missing a round', async () => {
    const rotated = await home.inject({
      method: 'POST',
      url: `/api/v1/probes/${probeId}/rotate`,
      payload: { overlapSeconds: 120 },
    });
    expect(rotated.statusCode).toBe(201);
    const old = running[0]!;
    const fresh = startProbe(
      [
        '--server',
        `http://127.0.0.1:${port}`,
        '--token',
        rotated.json().token,
        '--spool-dir',
        `${spool}-new`,
      ],
      running,
    );
    await until('the new probe connected', () => fresh.err().includes('assignment: 2 monitors'));
    old.child.kill('SIGTERM');
    await old.exited;
    const switched = Date.now();
    await until('a round after the switch', async () => {
      const got = await rounds();
      return monitors.every((id) =>
        got.some(
          (r) => r.monitor_id === id && r.location_round > roundAt(id, INTERVAL * 1000, switched),
        ),
      );
    });
    const got = await rounds();
    for (const id of monitors) {
      const mine = got
        .filter((r) => r.monitor_id === id)
        .map((r) => r.location_round)
        .sort((a, b) => a - b);
      const last = mine[mine.length - 1]!;
      expect(last).toBeGreaterThanOrEqual(roundAt(id, INTERVAL * 1000, switched));
      expect(mine).toEqual(Array.from({ length: last - mine[0]! + 1 }, (_, i) => mine[0]! + i));
    }
  }, 60_000);
});
