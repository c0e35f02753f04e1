import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';
import { randomCheck, rng, toWrite } from '../support/history.js';

const HOUR = 3_600_000;

describe.each(engines)('delete all data on %s', (engine) => {
  let handle: Awaited<ReturnType<typeof openTestDatabase>>;
  let repos: Repositories;

  beforeAll(async () => {
    handle = await openTestDatabase(engine);
    repos = repositories(handle.database);
  });
  afterAll(async () => handle?.cleanup());

  const count = async (table: 'check_results' | 'rollup_minute' | 'rollup_hour' | 'rollup_day') =>
    (await handle.database.db.selectFrom(table).select('monitor_id').execute()).length;

  it('removes history in batches smaller than it, then every definition, and keeps people', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await repos.monitors.insert(monitorInput(), 0)).id);
    const r = rng(8);
    const now = Date.now();
    await repos.results.writeBatch(
      ids.flatMap((id) =>
        Array.from({ length: 40 }, (_, k) => toWrite(randomCheck(r, id, now - k * HOUR))),
      ),
    );
    await repos.maintenance.insert(maintenanceInput(), now, 'owner@example.com');
    await repos.users.insert(
      { email: 'o@example.com', name: 'O', role: 'owner', passwordHash: 'x' },
      now,
    );
    expect(await count('check_results')).toBe(120);
    expect(await count('rollup_minute')).toBe(120);
    expect(await count('rollup_hour')).toBe(120);
    expect(await count('rollup_day')).toBeGreaterThan(3);

    const deleted = await repos.instanceData.deleteAll(7);

    expect(deleted.monitorIds.sort((a, b) => a - b)).toEqual(ids);
    expect(deleted.maintenanceIds).toHaveLength(1);
    for (const table of ['check_results', 'rollup_minute', 'rollup_hour', 'rollup_day'] as const)
      expect(await count(table), table).toBe(0);
    expect(await repos.monitors.list()).toEqual([]);
    expect(await repos.users.count()).toBe(1);
  });
});
