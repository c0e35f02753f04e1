import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { daySegments } from '../../src/db/repositories/day-sums.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import {
  countsInSpans,
  readSpans,
  uniqueSpans,
  type Interval,
} from '../../src/domain/availability/index.js';
import { periodPercentiles } from '../../src/domain/reports/latency.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { batches, randomCheck, rng, toWrite, type GenCheck } from '../support/history.js';

const DAY = 86_400_000;
const JAN = Date.UTC(2026, 0, 1);
const FEB = Date.UTC(2026, 1, 1);
const MAR = Date.UTC(2026, 2, 1);
// A zone's months (UTC+1) start an hour before UTC's midnight: hours at the edges, days inside.
const ZONED: Interval[] = [
  { start: JAN - 3_600_000, end: MAR - 3_600_000 },
  { start: JAN - 3_600_000, end: FEB - 3_600_000 },
  { start: FEB - 3_600_000, end: MAR - 3_600_000 },
];
const UTC: Interval[] = [
  { start: JAN, end: MAR },
  { start: JAN, end: FEB },
  { start: FEB, end: MAR },
];

describe('day segments', () => {
  it('cut overlapping day spans where any starts or ends, leaving gaps out', () => {
    const d = (n: number) => JAN + n * DAY;
    const segs = daySegments([
      { level: 'day', from: d(0), to: d(30) },
      { level: 'day', from: d(0), to: d(9) },
      { level: 'day', from: d(10), to: d(10) },
      { level: 'day', from: d(40), to: d(41) },
    ]);
    expect(segs).toEqual([
      { level: 'day', from: d(0), to: d(9) },
      { level: 'day', from: d(10), to: d(10) },
      { level: 'day', from: d(11), to: d(30) },
      { level: 'day', from: d(40), to: d(41) },
    ]);
  });
});

describe.each(engines)('report rollups read as runs of days on %s', (engine) => {
  let database: Database;
  let repos: Repositories;
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  const ids: number[] = [];
  const r = rng(20260101);

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    database = handle.database;
    repos = repositories(database);
    for (let i = 0; i < 3; i += 1) ids.push((await repos.monitors.insert(monitorInput(), JAN)).id);
    // Two months and a bit of checks every few hours; the third monitor has none in February.
    const checks: GenCheck[] = [];
    for (const id of ids) {
      const end = id === ids[2] ? FEB - 5 * 3_600_000 : MAR + DAY;
      for (let at = JAN - 2 * DAY; at < end; at += 1 + Math.floor(r() * 5 * 3_600_000)) {
        checks.push(randomCheck(r, id, at));
      }
    }
    for (const batch of batches(r, checks, 80)) await repos.results.writeBatch(batch.map(toWrite));
  });
  afterAll(async () => handle?.cleanup());

  /** What the report reads, against every stored row read one by one. */
  async function expectSameAsStoredRows(periods: Interval[]) {
    const spans = uniqueSpans(readSpans(periods));
    const read = await repos.availability.rollups(ids, spans);
    const rows = await repos.availability.counts(ids, spans);
    const sketches = await repos.availability.latency(ids, spans);
    for (const id of ids) {
      const mine = (l: { monitorId: number }[]) => l.filter((x) => x.monitorId === id);
      for (const p of periods) {
        const s = readSpans([p]);
        expect(countsInSpans(mine(read.counts) as typeof rows, s)).toEqual(
          countsInSpans(mine(rows) as typeof rows, s),
        );
      }
      const tail = periods.slice(1);
      expect(periodPercentiles(mine(read.latency) as typeof sketches, tail)).toEqual(
        periodPercentiles(mine(sketches) as typeof sketches, tail),
      );
    }
    // Fewer rows than stored: each month's days are one sum per monitor.
    expect(read.counts.length).toBeLessThan(rows.length);
  }

  it('gives the counts and percentiles of the stored days, in UTC and in a zone', async () => {
    await expectSameAsStoredRows(UTC);
    await expectSameAsStoredRows(ZONED);
    // Again: the kept sketches serve the second read.
    await expectSameAsStoredRows(UTC);
  });

  it('follows a late result into a closed month, and a day removed', async () => {
    await expectSameAsStoredRows(UTC);
    const late = { ...randomCheck(r, ids[0]!, JAN + 9 * DAY + 1234), outcome: 'up' as const };
    late.latencyUs = 19_999_000; // far above the rest: p99 of January must move
    const before = await repos.availability.rollups(ids, uniqueSpans(readSpans(UTC)));
    await repos.results.writeBatch([toWrite(late)]);
    await expectSameAsStoredRows(UTC);
    const after = await repos.availability.rollups(ids, uniqueSpans(readSpans(UTC)));
    const jan = <T extends { monitorId: number; bucket: number }>(l: T[]) =>
      l.find((x) => x.monitorId === ids[0] && x.bucket === JAN);
    expect(jan(after.latency)?.latencyMaxUs).toBe(19_999_000);
    expect(jan(after.latency)?.sketch).not.toEqual(jan(before.latency)?.sketch);

    await database.db
      .deleteFrom('rollup_day')
      .where('monitor_id', '=', ids[1]!)
      .where('bucket', '=', FEB + 3 * DAY)
      .execute();
    await expectSameAsStoredRows(UTC);
  });
  it('stores merged runs, so another process reads them instead of the days', async () => {
    const spans = uniqueSpans(readSpans(UTC));
    const first = await repos.availability.rollups(ids, spans);
    const stored = await database.db
      .selectFrom('rollup_run_sketches')
      .select(['monitor_id', 'run_from', 'run_to', 'fingerprint'])
      .where('run_from', '=', JAN)
      .where('run_to', '=', FEB - DAY)
      .execute();
    expect(stored.map((x) => Number(x.monitor_id)).sort()).toEqual([...ids].sort());

    // A stored sketch whose fingerprint still matches is what a new process reads...
    const marker = new Uint8Array([9, 9, 9]);
    await database.db
      .updateTable('rollup_run_sketches')
      .set({ sketch: marker })
      .where('monitor_id', '=', ids[0]!)
      .where('run_from', '=', JAN)
      .where('run_to', '=', FEB - DAY)
      .execute();
    const janOf = (l: { monitorId: number; bucket: number; sketch: Uint8Array | null }[]) =>
      l.find((x) => x.monitorId === ids[0] && x.bucket === JAN)?.sketch;
    const restarted = await repositories(database).availability.rollups(ids, spans);
    expect([...(janOf(restarted.latency) ?? [])]).toEqual([9, 9, 9]);

    // ...and one whose days changed since is merged again from the days, and stored anew.
    await database.db
      .updateTable('rollup_run_sketches')
      .set({ fingerprint: 'stale' })
      .where('monitor_id', '=', ids[0]!)
      .where('run_from', '=', JAN)
      .where('run_to', '=', FEB - DAY)
      .execute();
    const again = await repositories(database).availability.rollups(ids, spans);
    expect(janOf(again.latency)).toEqual(janOf(first.latency));
    const row = await database.db
      .selectFrom('rollup_run_sketches')
      .select('fingerprint')
      .where('monitor_id', '=', ids[0]!)
      .where('run_from', '=', JAN)
      .where('run_to', '=', FEB - DAY)
      .executeTakeFirstOrThrow();
    expect(row.fingerprint).not.toBe('stale');
  });

  it("gives the stored days' figures in a new process after a late result", async () => {
    await expectSameAsStoredRows(UTC);
    const late = { ...randomCheck(r, ids[1]!, FEB + 2 * DAY + 99), outcome: 'up' as const };
    late.latencyUs = 59_000_000;
    await repos.results.writeBatch([toWrite(late)]);
    repos = repositories(database);
    await expectSameAsStoredRows(UTC);
    const read = await repos.availability.rollups(ids, uniqueSpans(readSpans(UTC)));
    const feb = read.latency.find((x) => x.monitorId === ids[1] && x.bucket === FEB);
    expect(feb?.latencyMaxUs).toBe(59_000_000);
  });

  it("drops a monitor's stored runs with the monitor", async () => {
    await repos.availability.rollups(ids, uniqueSpans(readSpans(UTC)));
    const extra = (await repos.monitors.insert(monitorInput(), JAN)).id;
    await repos.results.writeBatch([toWrite(randomCheck(r, extra, JAN + DAY + 5))]);
    await repos.results.writeBatch([toWrite(randomCheck(r, extra, JAN + 2 * DAY + 5))]);
    await repos.availability.rollups([extra], uniqueSpans(readSpans(UTC)));
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('rollup_run_sketches')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('monitor_id', '=', extra)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBeGreaterThan(0);
    await repos.monitors.remove(extra);
    expect(await count()).toBe(0);
  });
});
