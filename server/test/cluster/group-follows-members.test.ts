import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GroupMonitorInput } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { engines, postgresUrl, testTarget, type TestTarget } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { startPagewatch, type PagewatchProcess } from '../support/pagewatch-process.js';
import { until } from '../support/until.js';

const EXPIRE_MS = 2_400;

/**
 * A group follows its member's flip within seconds across processes (addendum to ADR 47): with
 * PAGEWATCH_WORKERS=2 the worker schedules every monitor and the primary writes the results,
 * so the primary hears the member's flip and hands the group's check-now to the worker through
 * the database, as a check-now from the UI would be. The groups' interval is 300 s.
 */
describe.each(engines)('groups following their members across processes on %s', (engine) => {
  let t: TestTarget;
  let dir: string;
  let db: Database;
  let repos: Repositories;
  let target: TargetServer;
  let primary: PagewatchProcess;
  let member = 0;
  let group = 0;
  let outer = 0;

  /** Process id → partitions it holds now (live leases), from the member rows. */
  const shares = async () => {
    const [leases, members] = await Promise.all([
      repos.cluster.partitions.table(),
      repos.cluster.liveMembers(EXPIRE_MS),
    ]);
    const pidOf = new Map(members.map((m) => [m.id, Number(m.name.split(':').pop())]));
    const out = new Map<number, number>();
    for (const l of leases) {
      if (l.expiresAt <= l.now || !l.owner) continue;
      const pid = pidOf.get(l.owner) ?? -1;
      out.set(pid, (out.get(pid) ?? 0) + 1);
    }
    return out;
  };
  const workerPid = () =>
    Number(primary.lines.filter((l) => l.msg === 'started a scheduler worker').at(-1)?.pid ?? 0);
  const statusOf = async (id: number) =>
    (
      await db.db
        .selectFrom('monitors')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  const reaches = (id: number, status: string, what: string) =>
    until(what, async () => ((await statusOf(id)) === status ? true : undefined), 20_000);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-groups-'));
    t =
      engine === 'sqlite'
        ? {
            target: { kind: 'sqlite', file: path.join(dir, 'pagewatch.db') },
            cleanup: async () => {},
          }
        : await testTarget('postgres');
    db = await openDatabase(t.target);
    repos = repositories(db);
    target = await startTargetServer();
    const now = Date.now();
    member = (
      await repos.monitors.insert(
        monitorInput({
          name: 'Cart',
          url: `${target.url}/ok`,
          interval: 10,
          timeout: 3,
          retries: 0,
        }),
        now,
      )
    ).id;
    const groupOf = (name: string, members: number[]) =>
      repos.monitors.insert(
        GroupMonitorInput.parse({ type: 'group', name, members, interval: 300, retries: 0 }),
        now,
      );
    group = (await groupOf('Storefront', [member])).id;
    outer = (await groupOf('Whole site', [group])).id;
    primary = startPagewatch('primary', {
      PAGEWATCH_DATA_DIR: dir,
      ...(t.target.kind === 'postgres'
        ? { PAGEWATCH_DATABASE_URL: postgresUrl!, PAGEWATCH_DATABASE_SCHEMA: t.target.schema ?? '' }
        : {}),
      PAGEWATCH_WORKERS: '2',
      PAGEWATCH_LOG_LEVEL: 'info',
      PAGEWATCH_LEASE_RENEW_MS: '300',
      PAGEWATCH_LEASE_EXPIRE_MS: String(EXPIRE_MS),
    });
    await primary.waitForLog('Pagewatch is serving', 90_000);
  }, 120_000);

  afterAll(async () => {
    const worker = primary ? workerPid() : 0;
    await primary?.destroy();
    if (worker) {
      try {
        process.kill(worker, 'SIGKILL');
      } catch {
        // already gone with its primary
      }
    }
    await target?.close();
    await db?.close();
    await t?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a member checked by the worker flips; the primary writes it and the worker checks the groups at once', async () => {
    // The writer (primary) schedules nothing: the groups can only be checked over the hand-over.
    await until(
      'the worker to hold every partition, the primary none',
      async () => {
        const s = await shares();
        return (s.get(workerPid()) === 1024 && !s.get(primary.child.pid!)) || undefined;
      },
      90_000,
    );
    await reaches(member, 'up', 'the member to be up');
    target.setMode('down');
    await reaches(member, 'down', 'the member to go down at its next check (10 s)');
    await reaches(group, 'down', 'the group to follow within seconds, not its 300 s');
    await reaches(outer, 'down', 'the group of the group to follow it');
    target.setMode('normal');
    await reaches(member, 'up', 'the member to come back');
    await reaches(group, 'up', 'the group to follow it back');
    await reaches(outer, 'up', 'the group of the group to follow it back');
  }, 180_000);
});
