import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { OFFLINE_AFTER_MS } from '../../src/domain/locations.js';
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

const INTERVAL = 10;
/**
 * How long the probe stays frozen: the 2 minutes. What the test proves needs less — the
 * location offline (30 s of silence, OFFLINE_AFTER_MS, plus the 5 s sweep) and the frozen
 * round's result past its live window (interval + timeout + 10 s = 25 s) — so a quicker local
 * run may set `PAGEWATCH_TEST_PROBE_FREEZE_S=45`.
 */
const FREEZE_MS = Number(process.env.PAGEWATCH_TEST_PROBE_FREEZE_S ?? 120) * 1000;

/**
 * A probe frozen with SIGSTOP (a laptop lid, a VM paused, a process swapped out): while frozen
 * its location goes offline with exactly one incident; on SIGCONT it reconnects, the incident
 * resolves, the result of the check that was in flight when it froze (a failure, answered while
 * it was frozen) reaches history but never the live status, every check it ran is stored
 * exactly once, and the stream lines it reads on waking do not set its clock back. While it is
 * away the monitor, checked only there, may be UNKNOWN (coverage lost); never DOWN.
 */
describe.each(engines)('a probe frozen by SIGSTOP on %s', (engine) => {
  let t: TestApp;
  let target: http.Server;
  let targetUrl = '';
  const running: ProbeRun[] = [];
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-probe-freeze-'));
  let locationId = '';
  let token = '';
  let monitorId = 0;
  /** Each request the probe made: the check it ran. */
  const hits: number[] = [];
  /** When set, the next request is answered 500 after a delay (the probe freezes meanwhile). */
  let failNext: ((at: number) => void) | null = null;

  const rows = async () =>
    (
      await sql<{ location_round: number; outcome: number; n: number }>`
        select location_round, min(outcome) as outcome, count(*) as n from check_results
        where location_id = ${locationId} and monitor_id = ${monitorId}
        group by location_round order by location_round`.execute(t.database.db)
    ).rows.map((r) => ({
      round: Number(r.location_round),
      outcome: Number(r.outcome),
      n: Number(r.n),
    }));

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      hits.push(Date.now());
      const fail = failNext;
      if (fail) {
        failNext = null;
        fail(Date.now());
        setTimeout(() => {
          res.statusCode = 500;
          res.end('failing');
        }, 1500);
      } else res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    // With its jobs (`scheduler`): the offline-locations sweep is one. The monitor is checked
    // only from the probe's location, so the local scheduler leaves it alone.
    t = await startTestApp({ engine, listen: true, scheduler: true });
    ({ locationId, token } = await addProbeLocation(t, 'Lisbon', 'lis-1'));
    // No retries: a single live failure would be a flip, so a late one slipping through shows.
    // Created paused and moved to the probe's location before it runs: the local scheduler
    // never checks it, so every request the target sees is one of the probe's checks.
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({
        url: `${targetUrl}/frozen`,
        interval: INTERVAL,
        timeout: 5,
        retries: 0,
        paused: true,
      }),
    });
    monitorId = m.json().id;
    const placed = await t.inject({
      method: 'PUT',
      url: `/api/v1/monitors/${monitorId}/locations`,
      payload: { locations: [locationId], quorum: null },
    });
    expect(placed.statusCode).toBe(200);
    const unpaused = await t.inject({
      method: 'POST',
      url: `/api/v1/monitors/${monitorId}/resume`,
    });
    expect(unpaused.statusCode).toBeLessThan(300);
  }, 60_000);

  afterAll(async () => {
    for (const p of running) {
      if (p.child.exitCode === null) {
        // Continued first (the test may have failed while it was frozen), then ended.
        p.signal('SIGCONT');
        p.signal('SIGKILL');
        p.child.kill('SIGKILL');
      }
    }
    await Promise.all(running.map((p) => p.exited));
    await t?.stop();
    target?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  it(
    'goes offline once, comes back, loses nothing and flips nothing with the late result',
    async () => {
      const probe = startProbe(
        ['--server', t.url, '--token', token, '--spool-dir', spool],
        running,
      );
      onTestFailed(() => console.error(`probe said:\n${probe.err()}`));
      // Starting the bin from the sources takes a while on a loaded machine.
      await until('the first result', async () => (await rows()).length > 0, 120_000);
      await until('the monitor up', async () => {
        const s = (await t.inject(`/api/v1/monitors/${monitorId}`)).json().status;
        return s === 'up';
      });
      // Freeze the probe while its check is in flight: the target answers 500 meanwhile.
      const frozenAt = await new Promise<number>((resolve) => {
        failNext = (at) => {
          probe.signal('SIGSTOP');
          resolve(at);
        };
      });
      // The round the target's clock puts the request in. The probe places its rounds on its
      // estimate of the server's clock, which may run a little ahead: a check it starts at
      // the next round's slot can reach the target just before that slot by the server's
      // clock. `frozenRound` is settled below from what the probe reported.
      let frozenRound = roundAt(monitorId, INTERVAL * 1000, frozenAt);
      try {
        await until(
          'the location offline',
          async () =>
            (await t.inject('/api/v1/locations'))
              .json()
              .items.find((l: { id: string }) => l.id === locationId)?.online === false,
          OFFLINE_AFTER_MS + 30_000,
        );
        const left = FREEZE_MS - (Date.now() - frozenAt);
        if (left > 0) await new Promise((r) => setTimeout(r, left));
      } finally {
        probe.signal('SIGCONT');
      }
      const resumed = Date.now();
      await until(
        'the reconnection',
        () => probe.err().split('probe: connected:').length > 2,
        30_000,
      );
      await until('the location online', async () => {
        const l = (await t.inject('/api/v1/locations'))
          .json()
          .items.find((x: { id: string }) => x.id === locationId);
        return l?.online === true;
      });
      // A live round after the freeze, and the frozen round's late failure, both stored.
      await until('a round after the freeze and the late failure', async () => {
        const got = await rows();
        return (
          got.some((r) => r.round > roundAt(monitorId, INTERVAL * 1000, resumed)) &&
          got.some((r) => r.round === frozenRound || r.round === frozenRound + 1) &&
          got.some((r) => r.outcome !== 0)
        );
      }).catch(async (err: Error) => {
        throw new Error(
          `${err.message}: rounds ${JSON.stringify(await rows())}, frozen round ${frozenRound}; probe said:\n${probe.err()}`,
        );
      });
      const got = await rows();
      // The check in flight at the freeze: answered 500 while frozen, stored as down (history),
      // the only one that failed. It is the round the request came in, or the next one when it
      // came less than a second before that round's slot (the probe's clock estimate).
      const failed = got.filter((r) => r.outcome !== 0);
      expect(failed).toHaveLength(1);
      if (failed[0]!.round === frozenRound + 1) {
        expect(dueOf(monitorId, INTERVAL * 1000, frozenRound + 1) - frozenAt).toBeLessThan(1000);
        frozenRound += 1;
      }
      expect(got.find((r) => r.round === frozenRound)).toMatchObject({ outcome: 2, n: 1 });
      // Each round once; every check the probe ran (one request each) stored: none lost.
      expect(got.every((r) => r.n === 1)).toBe(true);
      await until(
        'every check stored',
        async () => (await rows()).length >= hits.length,
        30_000,
      ).catch(async (err: Error) => {
        throw new Error(
          `${err.message}: ${(await rows()).length} rounds stored, ${hits.length} checks run; probe said:\n${probe.err()}`,
        );
      });
      expect((await rows()).length).toBe(hits.length);
      // Nothing of the frozen period flipped the live status.
      // UNKNOWN is the honest word for a monitor whose only location is away; it must be said
      // while the probe was frozen, and nothing may say DOWN or REGIONAL.
      const flips = (
        await sql<{ at: number; to_status: string }>`
          select at, to_status from status_flips
          where monitor_id = ${monitorId} order by id`.execute(t.database.db)
      ).rows.map((f) => ({ at: Number(f.at), to: f.to_status }));
      const notUp = flips.filter((f) => f.to !== 'up');
      expect(notUp.filter((f) => f.to !== 'unknown')).toEqual([]);
      for (const f of notUp) {
        expect(f.at).toBeGreaterThanOrEqual(frozenAt);
        expect(f.at).toBeLessThanOrEqual(resumed);
      }
      // Its clock estimate survived the lines read on waking: no warning of a clock off by the
      // length of the freeze.
      expect(probe.err()).not.toContain("warning: this machine's clock");
      expect((await t.inject(`/api/v1/monitors/${monitorId}`)).json().status).toBe('up');
      // One incident for the location, resolved on its return.
      const incidents = async () =>
        (
          await sql<{ title: string; resolved_at: number | null }>`
            select title, resolved_at from incidents`.execute(t.database.db)
        ).rows.map((r) => ({ title: r.title, resolved: r.resolved_at !== null }));
      await until(
        'the offline incident resolved',
        async () => (await incidents())[0]?.resolved,
        30_000,
      ).catch(() => null);
      expect(await incidents()).toEqual([
        { title: 'Location "Lisbon" is offline', resolved: true },
      ]);
    },
    FREEZE_MS + 240_000,
  );
});
