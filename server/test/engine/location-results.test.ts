import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { dueOf } from '../../src/domain/schedule.js';
import {
  recordLocationResults,
  type LocationResultDeps,
  type LocationResultItem,
} from '../../src/engine/location-results.js';
import { engines, openTestDatabase } from '../support/engines.js';
import { checkRun, downRun, monitorInput } from '../support/factories.js';

const T0 = Date.UTC(2030, 4, 1, 12, 0, 0);
const I = 60_000;

/**
 * Location results and the quorum (ADR 58) on a real database: each (monitor, location, round)
 * stored once, replays into history only, and the combined status from fresh verdicts.
 */
describe.each(engines)('location results on %s', (engine) => {
  let database: Database;
  let cleanup: () => Promise<void>;
  let repos: Repositories;
  let now = T0;
  let deps: LocationResultDeps;

  beforeAll(async () => {
    const t = await openTestDatabase(engine);
    database = t.database;
    cleanup = () => t.cleanup();
    repos = repositories(database);
    for (const id of ['eu', 'us']) {
      await database.db
        .insertInto('locations')
        .values({ id, name: id.toUpperCase(), created_at: T0 })
        .execute();
    }
    deps = {
      repos,
      clock: { now: () => now },
      logger: pino({ level: 'silent' }),
    };
  }, 60_000);
  afterAll(async () => cleanup?.());

  async function monitor(locations: string[], retries = 0, quorum: number | null = null) {
    const m = await repos.monitors.insert(monitorInput({ retries, interval: 60 }), T0);
    await database.db
      .insertInto('monitor_locations')
      .values(locations.map((location_id) => ({ monitor_id: m.id, location_id })))
      .execute();
    if (quorum !== null) {
      await database.db
        .updateTable('monitors')
        .set({ location_quorum: quorum })
        .where('id', '=', m.id)
        .execute();
    }
    return m.id;
  }

  /** An item of the `r`-th round after T0, checked a second after it was due. */
  function item(monitorId: number, r: number, down = false): LocationResultItem {
    const due = dueOf(monitorId, I, Math.floor(T0 / I) + r);
    return {
      monitorId,
      roundAt: new Date(due).toISOString(),
      startedAt: new Date(due + 1000).toISOString(),
      result: down ? downRun() : checkRun(),
    };
  }

  async function at(monitorId: number, r: number) {
    now = dueOf(monitorId, I, Math.floor(T0 / I) + r) + 2000;
  }

  const statusOf = async (id: number) =>
    (
      await database.db
        .selectFrom('monitors')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  const flipsOf = async (id: number) =>
    (
      await database.db
        .selectFrom('status_flips')
        .select(['from_status', 'to_status'])
        .where('monitor_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((f) => `${f.from_status}->${f.to_status}`);

  const rowsOf = async (id: number) =>
    database.db
      .selectFrom('check_results')
      .select(['location_id', 'location_round'])
      .where('monitor_id', '=', id)
      .execute();

  const checksRolled = async (id: number) =>
    Number(
      (
        await database.db
          .selectFrom('rollup_hour')
          .select((eb) => eb.fn.sum<number>('checks').as('n'))
          .where('monitor_id', '=', id)
          .executeTakeFirst()
      )?.n ?? 0,
    );

  it('counts a batch delivered twice once, in history and rollups', async () => {
    const id = await monitor(['local', 'eu']);
    await at(id, 2);
    const batch = [item(id, 0), item(id, 1), item(id, 2)];
    const first = await recordLocationResults(deps, 'eu', batch, { replayed: false });
    expect(first).toEqual({ accepted: 3, duplicates: 0, refused: [] });
    const again = await recordLocationResults(deps, 'eu', batch, { replayed: false });
    expect(again).toEqual({ accepted: 0, duplicates: 3, refused: [] });
    // The same round twice inside one batch is one too.
    const inner = await recordLocationResults(deps, 'eu', [item(id, 3), item(id, 3)], {
      replayed: true,
    });
    expect(inner).toMatchObject({ accepted: 1, duplicates: 1 });
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.location_id === 'eu')).toBe(true);
    expect(await checksRolled(id)).toBe(4);
  });

  it('refuses unknown monitors, monitors not at that location and rounds that are not times', async () => {
    const id = await monitor(['local', 'eu']);
    const bad = { ...item(id, 0), roundAt: 'yesterday' };
    const out = await recordLocationResults(deps, 'eu', [item(999_999, 0), bad, item(id, 0)], {
      replayed: false,
    });
    expect(out.refused).toEqual([
      { index: 0, code: 'unknown_monitor' },
      { index: 1, code: 'invalid_round' },
    ]);
    const other = await recordLocationResults(deps, 'us', [item(id, 0)], { replayed: false });
    expect(other.refused).toEqual([{ index: 0, code: 'not_assigned' }]);
    expect(await rowsOf(id)).toHaveLength(1);
  });

  it('is REGIONAL when one of two locations fails, DOWN when both do, up when both pass', async () => {
    const id = await monitor(['local', 'eu']);
    await at(id, 0);
    await recordLocationResults(deps, 'local', [item(id, 0)], { replayed: false });
    await recordLocationResults(deps, 'eu', [item(id, 0)], { replayed: false });
    expect(await statusOf(id)).toBe('up');
    await at(id, 1);
    await recordLocationResults(deps, 'local', [item(id, 1)], { replayed: false });
    await recordLocationResults(deps, 'eu', [item(id, 1, true)], { replayed: false });
    expect(await statusOf(id)).toBe('regional');
    const said = await database.db
      .selectFrom('monitors')
      .select('last_error_message')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(said.last_error_message).toBe('Failing from EU: Connection refused');
    await at(id, 2);
    await recordLocationResults(deps, 'eu', [item(id, 2, true)], { replayed: false });
    await recordLocationResults(deps, 'local', [item(id, 2, true)], { replayed: false });
    expect(await statusOf(id)).toBe('down');
    await at(id, 3);
    await recordLocationResults(deps, 'local', [item(id, 3)], { replayed: false });
    await recordLocationResults(deps, 'eu', [item(id, 3)], { replayed: false });
    expect(await statusOf(id)).toBe('up');
    expect(await flipsOf(id)).toEqual([
      'pending->up',
      'up->regional',
      'regional->down',
      'down->regional',
      'regional->up',
    ]);
  });

  it('keeps replayed results in history and rollups without moving the live status', async () => {
    const id = await monitor(['local', 'eu']);
    await at(id, 0);
    await recordLocationResults(deps, 'local', [item(id, 0)], { replayed: false });
    await recordLocationResults(deps, 'eu', [item(id, 0)], { replayed: false });
    await at(id, 5);
    const spooled = [1, 2, 3, 4].map((r) => item(id, r, true));
    const out = await recordLocationResults(deps, 'eu', spooled, { replayed: true });
    expect(out.accepted).toBe(4);
    expect(await statusOf(id)).toBe('up');
    expect(await flipsOf(id)).toEqual(['pending->up']);
    expect(await rowsOf(id)).toHaveLength(6);
    expect(await checksRolled(id)).toBe(6);
    const verdict = (await repos.locationResults.verdicts(id)).find((v) => v.locationId === 'eu');
    expect(verdict?.outcome).toBe('up');
  });

  it('is UNKNOWN when fewer than k verdicts are fresh, and a late round never flips', async () => {
    const id = await monitor(['local', 'eu', 'us'], 0, 2);
    await at(id, 0);
    await recordLocationResults(deps, 'local', [item(id, 0)], { replayed: false });
    expect(await statusOf(id)).toBe('unknown');
    await recordLocationResults(deps, 'eu', [item(id, 0)], { replayed: false });
    expect(await statusOf(id)).toBe('up');
    await at(id, 3);
    await recordLocationResults(deps, 'local', [item(id, 3)], { replayed: false });
    // Only local's verdict is fresh now: coverage is lost.
    expect(await statusOf(id)).toBe('unknown');
    // A result of round 1 arriving late (not replayed): stored, but round 3 was decided already.
    await recordLocationResults(deps, 'us', [item(id, 1, true)], { replayed: false });
    expect(await statusOf(id)).toBe('unknown');
    expect(await flipsOf(id)).toEqual(['pending->unknown', 'unknown->up', 'up->unknown']);
  });
});
