import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { ResultWriter } from '../../src/engine/result-writer.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const INTERVAL = 60_000;

/** Round `r` of a monitor, up or (from `downFrom` on) down, as the scheduler would hand it over. */
function roundWrite(monitorId: number, r: number, downFrom = Infinity): ResultWrite {
  const down = r >= downFrom;
  const at = T0 + r * INTERVAL + monitorId;
  return {
    monitorId,
    at,
    run: down ? downRun() : checkRun(),
    status: down ? 'down' : 'up',
    failures: down ? 1 : 0,
    recent: [],
    flip:
      r === 0 ? { from: 'pending', to: 'up' } : r === downFrom ? { from: 'up', to: 'down' } : null,
    round: { round: r, roundDue: at, attempt: 0 },
  };
}

/**
 * The repository as the writer sees it, counting the batches in flight at once and failing the
 * test if two of them ever hold the same monitor.
 */
function watched(results: Repositories['results'], lanes: number) {
  const inFlight = new Map<number, number>();
  const seen = { maxAtOnce: 0, batches: 0, sharedMonitor: false };
  let atOnce = 0;
  const repo = {
    parallelBatches: lanes,
    page: (monitorId: number, limit: number, before?: number) =>
      results.page(monitorId, limit, before),
    async writeBatch(writes: readonly ResultWrite[]) {
      atOnce += 1;
      seen.batches += 1;
      seen.maxAtOnce = Math.max(seen.maxAtOnce, atOnce);
      for (const w of writes) {
        if (inFlight.has(w.monitorId)) seen.sharedMonitor = true;
        inFlight.set(w.monitorId, (inFlight.get(w.monitorId) ?? 0) + 1);
      }
      try {
        return await results.writeBatch(writes);
      } finally {
        atOnce -= 1;
        for (const w of writes) {
          const n = inFlight.get(w.monitorId)! - 1;
          if (n === 0) inFlight.delete(w.monitorId);
          else inFlight.set(w.monitorId, n);
        }
      }
    },
  };
  return { repo, seen };
}

describe.each(engines)('the result writer writing batches side by side (%s)', (engine) => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let repos: Repositories;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    repos = repositories(handle.database);
  });
  afterAll(async () => handle.cleanup());

  it('PostgreSQL takes several batches at once; SQLite one', () => {
    expect(repos.results.parallelBatches).toBe(engine === 'postgres' ? 3 : 1);
  });

  it("three lanes never share a monitor, keep each monitor's rounds in order and lose none", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i += 1) ids.push((await repos.monitors.insert(monitorInput(), T0)).id);
    const { repo, seen } = watched(repos.results, 3);
    let written = 0;
    let duplicates = 0;
    const writer = new ResultWriter(repo, (w) => (written += w.length), pino({ level: 'silent' }), {
      maxBatch: 7,
      flushMs: 1,
      onDuplicate: (n) => (duplicates += n),
    });
    // Six rounds of forty monitors arrive interleaved, as results of many checks do; the
    // odd-numbered monitors go down in round 3. Batches of 7 put a monitor's next round in
    // the queue while its previous one is being written.
    const rounds = 6;
    for (let r = 0; r < rounds; r += 1) {
      for (const id of ids) writer.enqueue(roundWrite(id, r, id % 2 === 1 ? 3 : Infinity));
      if (r % 2 === 1) await writer.flush();
    }
    await writer.flush();

    expect(seen.sharedMonitor).toBe(false);
    // SQLite's writes run to the end once begun (one connection, synchronous statements), so
    // there the lanes follow each other; PostgreSQL's overlap.
    expect(seen.maxAtOnce).toBe(engine === 'postgres' ? 3 : 1);
    // Had a newer round committed before an older one, the round guard would have dropped the
    // older as a duplicate.
    expect(duplicates).toBe(0);
    expect(written).toBe(ids.length * rounds);
    const rows = await handle.database.db
      .selectFrom('check_results')
      .select(['monitor_id', 'round'])
      .where('monitor_id', 'in', ids)
      .orderBy('id')
      .execute();
    const byMonitor = new Map<number, number[]>();
    for (const row of rows) {
      const list = byMonitor.get(Number(row.monitor_id)) ?? [];
      list.push(Number(row.round));
      byMonitor.set(Number(row.monitor_id), list);
    }
    for (const id of ids) expect(byMonitor.get(id)).toEqual([0, 1, 2, 3, 4, 5]);
    // One flip up for every monitor, one down for each odd one: none twice.
    const flips = await handle.database.db
      .selectFrom('status_flips')
      .select(['monitor_id', 'to_status'])
      .where('monitor_id', 'in', ids)
      .execute();
    expect(flips.filter((f) => f.to_status === 'down')).toHaveLength(ids.length / 2);
    expect(flips).toHaveLength(ids.length * 1.5);
    const states = await handle.database.db
      .selectFrom('monitors')
      .select(['id', 'status', 'last_round'])
      .where('id', 'in', ids)
      .execute();
    for (const s of states) {
      expect(Number(s.last_round)).toBe(rounds - 1);
      expect(s.status).toBe(Number(s.id) % 2 === 1 ? 'down' : 'up');
    }
  });
});
