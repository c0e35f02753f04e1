import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_HEARTBEAT_MS } from '../../src/domain/locations.js';
import { dueOf } from '../../src/domain/schedule.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { startProbe, type ProbeRun } from '../support/probe-process.js';
import { monitorInput } from '../support/factories.js';

async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const INTERVAL = 10;
const SKEWS = [30_000, -30_000];

/**
 * Two probes whose machines' clocks are 30 s ahead and 30 s behind (the probe's test-only
 * `--clock-skew-ms` shifts the clock the probe reads, as a wrong system clock would): each
 * result lands in the round the server's clock says the check ran in, and the offset is shown
 * as a warning in the location API within one heartbeat.
 */
describe.each(engines)('probes with a clock 30 s off on %s', (engine) => {
  let t: TestApp;
  let target: http.Server;
  let targetUrl = '';
  const running: ProbeRun[] = [];
  const spools: string[] = [];
  /** Per request path, when the target (on the server's clock) saw each check. */
  const hits = new Map<string, number[]>();
  const setups: { skew: number; locationId: string; token: string; monitorId: number }[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      const list = hits.get(req.url ?? '') ?? [];
      list.push(Date.now());
      hits.set(req.url ?? '', list);
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    t = await startTestApp({ engine, listen: true });
    for (const skew of SKEWS) {
      const name = skew > 0 ? 'Ahead' : 'Behind';
      const loc = await t.inject({ method: 'POST', url: '/api/v1/locations', payload: { name } });
      const locationId = loc.json().id as string;
      const created = await t.inject({
        method: 'POST',
        url: `/api/v1/locations/${locationId}/probes`,
        payload: { name: `${locationId}-1` },
      });
      const m = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({
          url: `${targetUrl}/${locationId}`,
          interval: INTERVAL,
          timeout: 5,
        }),
      });
      const monitorId = m.json().id as number;
      await sql`insert into monitor_locations (monitor_id, location_id) values (${monitorId}, ${locationId})`.execute(
        t.database.db,
      );
      setups.push({ skew, locationId, token: created.json().token, monitorId });
    }
  }, 60_000);

  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await t?.stop();
    target?.close();
    for (const dir of spools) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts every result in its round and warns within one heartbeat', async () => {
    const probes = setups.map((s) => {
      const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-probe-clock-'));
      spools.push(spool);
      return startProbe(
        [
          '--server',
          t.url,
          '--token',
          s.token,
          '--spool-dir',
          spool,
          '--clock-skew-ms',
          String(s.skew),
        ],
        running,
      );
    });
    for (const [i, s] of setups.entries()) {
      const probe = probes[i]!;
      // Starting the bin from the sources takes a while on a loaded machine.
      await until(
        `probe ${s.locationId} connected`,
        () => probe.err().includes('connected:'),
        120_000,
      );
      const connected = Date.now();
      // One heartbeat, plus room for a loaded machine: the bound is the wait's.
      const view = await until(
        `the clock warning of ${s.locationId}`,
        async () => {
          const l = (await t.inject('/api/v1/locations'))
            .json()
            .items.find((x: { id: string }) => x.id === s.locationId);
          return l?.probes[0]?.clockWarning ? l.probes[0] : null;
        },
        PROBE_HEARTBEAT_MS + 10_000,
      );
      console.log(
        `clock ${s.skew} ms: warning shown ${Date.now() - connected} ms after connecting`,
      );
      expect(view.clockWarning).toBe(true);
      expect(Math.abs(view.clockOffsetMs - s.skew)).toBeLessThan(2_000);
      // The probe says so in its own log too (the estimate is off by up to half a round trip).
      expect(probe.err()).toMatch(
        new RegExp(`clock is ${s.skew > 0 ? '' : '-'}(29|30|31)\\.\\d s off the server's`),
      );
    }

    const stored = async (s: (typeof setups)[number]) =>
      (
        await sql<{ location_round: number; n: number }>`
          select location_round, count(*) as n from check_results
          where monitor_id = ${s.monitorId} and location_id = ${s.locationId}
          group by location_round order by location_round`.execute(t.database.db)
      ).rows.map((r) => ({ round: Number(r.location_round), n: Number(r.n) }));
    await until(
      'three rounds from each probe',
      async () => {
        for (const s of setups) if ((await stored(s)).length < 3) return false;
        return true;
      },
      6 * INTERVAL * 1000,
    );
    for (const s of setups) {
      // The last check may still be on its way: compare the rounds both sides have seen.
      await until(`the results of ${s.locationId} in`, async () => {
        const got = await stored(s);
        return got.length >= (hits.get(`/${s.locationId}`)?.length ?? 0);
      });
      const got = await stored(s);
      // Each check ran in the round it is stored under, on the server's clock (the target's):
      // from its due time to the next, give or take the clock estimate's error (a check run at
      // once on connecting belongs to the round running, up to a whole interval after its due
      // time, and a loaded machine puts ~150 ms on the estimate). A result put on the probe's
      // own clock would be three rounds (30 s) off, far outside a second either side.
      const ran = hits.get(`/${s.locationId}`) ?? [];
      expect(got).toHaveLength(ran.length);
      for (const [i, r] of got.entries()) {
        const since = ran[i]! - dueOf(s.monitorId, INTERVAL * 1000, r.round);
        expect(since).toBeGreaterThan(-1_000);
        expect(since).toBeLessThan(INTERVAL * 1000 + 1_000);
      }
      expect(got.every((r) => r.n === 1)).toBe(true);
    }
  }, 300_000);
});
