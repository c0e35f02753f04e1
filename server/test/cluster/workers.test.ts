import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MonitorRowPage } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { roundAt } from '../../src/domain/schedule.js';
import { randomBase62, sha256 } from '../../src/lib/crypto.js';
import { hashPassword } from '../../src/lib/passwords.js';
import { startHitLogTarget, type HitLogTarget } from '../fixtures/hit-log-target.js';
import { engines, postgresUrl, testTarget, type TestTarget } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { startPagewatch, type PagewatchProcess } from '../support/pagewatch-process.js';
import { until } from '../support/until.js';

const INTERVAL_MS = 10_000;
const MONITORS = 16;
const EXPIRE_MS = 2_400;

/**
 * PAGEWATCH_WORKERS=2 (ADR 25): the primary forks a scheduler worker; they divide the partitions
 * by the same leases as a fleet — the primary, the machine's one writer of results, is a
 * standby (capacity 0) that checks only while no worker lives — hear each other's events (over
 * IPC on SQLite, NOTIFY on PostgreSQL), and a worker killed with kill -9 hands its partitions to
 * the primary and is started again.
 */
describe.each(engines)('two scheduler workers on one %s database', (engine) => {
  let t: TestTarget;
  let dir: string;
  let db: Database;
  let repos: Repositories;
  let target: HitLogTarget;
  let primary: PagewatchProcess;
  let apiKey = '';
  const idOf = new Map<string, number>();

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
  /** Where the processes keep their data: the test's folder, or its PostgreSQL schema. */
  const databaseEnv = (): Record<string, string> =>
    t.target.kind === 'postgres'
      ? {
          PAGEWATCH_DATA_DIR: dir,
          PAGEWATCH_DATABASE_URL: postgresUrl!,
          PAGEWATCH_DATABASE_SCHEMA: t.target.schema ?? '',
        }
      : { PAGEWATCH_DATA_DIR: dir };
  const workerPid = () =>
    Number(primary.lines.filter((l) => l.msg === 'started a scheduler worker').at(-1)?.pid ?? 0);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-workers-'));
    t =
      engine === 'sqlite'
        ? {
            target: { kind: 'sqlite', file: path.join(dir, 'pagewatch.db') },
            cleanup: async () => {},
          }
        : await testTarget('postgres');
    db = await openDatabase(t.target);
    repos = repositories(db);
    target = await startHitLogTarget();
    for (let i = 0; i < MONITORS; i++) {
      const m = await repos.monitors.insert(
        monitorInput({ name: `Local ${i}`, url: target.url(`w${i}`), interval: 10, timeout: 3 }),
        Date.now(),
      );
      idOf.set(`w${i}`, m.id);
    }
    const user = await repos.users.insert(
      {
        email: 'o@example.com',
        name: 'O',
        role: 'owner',
        passwordHash: await hashPassword('x'.repeat(12)),
      },
      Date.now(),
    );
    apiKey = `pw_${randomBase62(40)}`;
    await repos.apiKeys.insert(
      {
        name: 'k',
        prefix: apiKey.slice(0, 10),
        keyHash: sha256(apiKey),
        role: 'owner',
        userId: user.id,
        expiresAt: null,
      },
      Date.now(),
    );
    primary = startPagewatch('primary', {
      ...databaseEnv(),
      PAGEWATCH_WORKERS: '2',
      PAGEWATCH_LOG_LEVEL: 'info',
      PAGEWATCH_LEASE_RENEW_MS: '300',
      PAGEWATCH_LEASE_EXPIRE_MS: String(EXPIRE_MS),
    });
    await primary.waitForLog('Pagewatch is serving', 90_000);
  }, 120_000);

  afterAll(async () => {
    const worker = workerPid();
    await primary?.destroy();
    // The worker follows its primary out; make sure of it.
    if (worker) {
      try {
        process.kill(worker, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await target?.close();
    await db?.close();
    await t?.cleanup();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('gives the worker every partition while the primary writes, each round checked once', async () => {
    await until(
      'the worker to hold every partition, the standby primary none',
      async () => {
        const s = await shares();
        return (s.get(workerPid()) === 1024 && !s.get(primary.child.pid!)) || undefined;
      },
      90_000,
    );
    const from = Date.now();
    await sleep(2 * INTERVAL_MS + 500);
    const rounds = new Map<string, number>();
    for (const hit of target.hits.filter((h) => h.at >= from)) {
      const id = idOf.get(hit.key)!;
      const key = `${id}:${roundAt(id, INTERVAL_MS, hit.at)}`;
      rounds.set(key, (rounds.get(key) ?? 0) + 1);
    }
    expect([...rounds].filter(([, n]) => n > 1)).toEqual([]);
    // Every monitor was checked in both intervals.
    expect(new Set(target.hits.filter((h) => h.at >= from).map((h) => h.key)).size).toBe(MONITORS);
  }, 150_000);

  it("stores every round's result once, the worker's written by the primary (the one writer)", async () => {
    const from = Date.now() - 2 * INTERVAL_MS;
    // The last round's results are committed within the writer's batching.
    await sleep(1_000);
    const rows = await db.db
      .selectFrom('check_results')
      .select(['monitor_id', 'round'])
      .where('at', '>=', from)
      .execute();
    const stored = new Map<string, number>();
    for (const r of rows) {
      const key = `${r.monitor_id}:${r.round}`;
      stored.set(key, (stored.get(key) ?? 0) + 1);
    }
    expect([...stored].filter(([, n]) => n > 1)).toEqual([]);
    expect(new Set(rows.map((r) => r.monitor_id)).size).toBe(MONITORS);
    // The worker never met the primary at SQLite's write lock.
    expect(primary.lines.filter((l) => /database is locked/.test(JSON.stringify(l)))).toEqual([]);
    // And its results went to the primary: it has no result writer of its own to fail.
    expect(
      primary.lines.filter((l) => l.worker === 1 && /result write/.test(String(l.msg))),
    ).toEqual([]);
  });

  it("adds the worker's metrics to the primary's /metrics", async () => {
    const text = await (await fetch(`${primary.url()}/metrics`)).text();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    // Both processes' monitors and partitions, counted once each.
    expect(value('pagewatch_monitors_scheduled')).toBe(MONITORS);
    expect(value('pagewatch_cluster_partitions_owned')).toBe(1024);
    // Every process sees the same two members: not added up.
    expect(value('pagewatch_cluster_members')).toBe(2);
    // Per-monitor check counts for every monitor, whichever process checked it.
    const perMonitor = text
      .split('\n')
      .filter((l) => l.startsWith('pagewatch_monitor_checks_total{') && l.includes('outcome="up"'))
      .map((l) => Number(l.split(' ').pop()));
    expect(perMonitor).toHaveLength(MONITORS);
    expect(perMonitor.every((n) => n >= 2)).toBe(true);
    expect(value('pagewatch_checks_total{outcome="up"}')).toBeGreaterThanOrEqual(2 * MONITORS);
  });

  it("shows the worker's results on the primary's dashboard (events over IPC)", async () => {
    const res = await fetch(`${primary.url()}/api/v1/monitors/rows?limit=100`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
    const page = MonitorRowPage.parse(await res.json());
    expect(page.items).toHaveLength(MONITORS);
    // Every row has its last check, whichever process ran it.
    expect(page.items.filter((r) => r.status === 'up')).toHaveLength(MONITORS);
  });

  it('kill -9 of the worker: its partitions are covered again, then the worker comes back', async () => {
    const victim = workerPid();
    process.kill(victim, 'SIGKILL');
    const killed = Date.now();
    // The standby primary takes them once the leases expire, unless the worker the pool starts
    // again (after 1 s) gets there first: either way every partition has a live owner.
    await until(
      'every partition to have a live owner again',
      async () => {
        const s = await shares();
        const live =
          (s.get(primary.child.pid!) ?? 0) +
          (workerPid() !== victim ? (s.get(workerPid()) ?? 0) : 0);
        return live === 1024 || undefined;
      },
      30_000,
    );
    // How fast is the failover-kills bench's to measure (docs/benchmarks.md), not a test's.
    await until(
      'the worker to be started again',
      () => (workerPid() !== victim ? true : undefined),
      15_000,
    );
    await until(
      'the new worker to take every partition back from the standby',
      async () => {
        const s = await shares();
        return (s.get(workerPid()) === 1024 && !s.get(primary.child.pid!)) || undefined;
      },
      90_000,
    );
    // No monitor went a whole interval without a check meanwhile.
    const after = target.hits.filter((h) => h.at >= killed);
    for (const key of idOf.keys()) {
      const times = [killed, ...after.filter((h) => h.key === key).map((h) => h.at), Date.now()];
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps), key).toBeLessThan(2 * INTERVAL_MS);
    }
  }, 150_000);

  it('kill -9 of the primary: its worker stops too, leaving nothing running', async () => {
    const worker = workerPid();
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(worker)).toBe(true);
    process.kill(primary.child.pid!, 'SIGKILL');
    // Its channel to the primary closed: it drains what it can and exits on its own.
    await until('the orphaned worker to exit', () => (alive(worker) ? undefined : true), 30_000);
  }, 60_000);

  it('kill -9 of the primary while its worker is still starting: the worker stops as well', async () => {
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    primary = startPagewatch('primary again', {
      ...databaseEnv(),
      PAGEWATCH_WORKERS: '2',
      PAGEWATCH_LOG_LEVEL: 'info',
    });
    await primary.waitForLog('started a scheduler worker', 90_000);
    const worker = workerPid();
    // Forked a moment ago: it is still opening the database when its primary dies.
    process.kill(primary.child.pid!, 'SIGKILL');
    await until('the orphaned worker to exit', () => (alive(worker) ? undefined : true), 45_000);
  }, 150_000);
});
