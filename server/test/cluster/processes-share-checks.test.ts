import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushMonitorInput } from '@pagewatch/contract';
import { decodeOutcome } from '../../src/db/codecs.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { partitionOf } from '../../src/domain/cluster/index.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';
import { newPushToken } from '../../src/services/push/token.js';
import { startHitLogTarget, type HitLogTarget } from '../fixtures/hit-log-target.js';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { postgresUrl, testTarget, type TestTarget } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { insertChannel, linkChannel } from '../support/outbox.js';
import { startPagewatch, type PagewatchProcess } from '../support/pagewatch-process.js';
import { until } from '../support/until.js';

const INTERVAL_MS = 10_000;
const MONITORS = 30;
// Short leases so a takeover fits well inside one interval: expiry 2.4 s, fence after 1.8 s.
const LEASE = { PAGEWATCH_LEASE_RENEW_MS: '300', PAGEWATCH_LEASE_EXPIRE_MS: '2400' };
const EXPIRE_MS = 2_400;

/**
 * Whole Pagewatch processes on one PostgreSQL schema share the checks by partition leases
 * (ADR 21, 24): a loopback target logs every request, so a round checked twice or not at all
 * shows; flips, incidents and alerts are counted in the database and at a real webhook.
 */
describe.runIf(postgresUrl)('full processes sharing the checks on PostgreSQL', () => {
  let t: TestTarget;
  let observer: Database;
  let repos: Repositories;
  let target: HitLogTarget;
  let hook: HttpReceiver;
  let dataDir: string;
  const nodes: PagewatchProcess[] = [];
  /** Monitor id by the target key its URL ends in, and back. */
  const idOf = new Map<string, number>();
  const keyOf = new Map<number, string>();
  /** A push monitor no job ever pings: its deadline must fire once for the whole deployment. */
  let silentPush = 0;

  const start = async (name: string) => {
    const schema = t.target.kind === 'postgres' ? (t.target.schema ?? '') : '';
    const node = startPagewatch(name, {
      PAGEWATCH_DATABASE_URL: postgresUrl!,
      PAGEWATCH_DATABASE_SCHEMA: schema,
      PAGEWATCH_DATA_DIR: dataDir,
      PAGEWATCH_SECRET: 'test-instance-secret-0123456789abcdef',
      PAGEWATCH_LOG_LEVEL: 'info',
      // One process each: these tests kill and freeze whole processes.
      PAGEWATCH_WORKERS: '1',
      ...LEASE,
    });
    nodes.push(node);
    // Generous: three processes compiling the sources at once on a loaded CI machine.
    await node.waitForLog('scheduler started', 90_000);
    return node;
  };

  /** Which process owns each monitor now, from the lease table and the member rows. */
  const owners = async (): Promise<Map<number, PagewatchProcess | undefined>> => {
    const [leases, members] = await Promise.all([
      repos.cluster.partitions.table(),
      repos.cluster.liveMembers(EXPIRE_MS),
    ]);
    const byMember = new Map(
      members.map((m) => [m.id, nodes.find((n) => m.name.endsWith(`:${n.child.pid}`))]),
    );
    const byPartition = new Map(
      leases.filter((l) => l.expiresAt > l.now).map((l) => [l.key, byMember.get(l.owner ?? '')]),
    );
    return new Map([...keyOf.keys()].map((id) => [id, byPartition.get(partitionOf(id))]));
  };

  /** Hits per (monitor, round) among the hits that arrived in [from, to). */
  const hitsPerRound = (from: number, to: number) => {
    const counts = new Map<string, number>();
    for (const hit of target.hits) {
      if (hit.at < from || hit.at >= to) continue;
      const id = idOf.get(hit.key);
      if (id === undefined) continue;
      const key = `${id}:${roundAt(id, INTERVAL_MS, hit.at)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };

  /**
   * Rounds checked twice among the hits in [from, to): a second request in a round is only
   * right after a failed one (the confirming re-check before a DOWN).
   */
  const checkedTwice = (from: number, to: number) => {
    const byRound = new Map<string, number[]>();
    for (const hit of target.hits) {
      const id = idOf.get(hit.key);
      if (hit.at < from || hit.at >= to || id === undefined) continue;
      const key = `${id}:${roundAt(id, INTERVAL_MS, hit.at)}`;
      byRound.set(key, [...(byRound.get(key) ?? []), hit.status]);
    }
    return [...byRound].filter(([, s]) => s.slice(0, -1).some((code) => code === 200));
  };

  /** The same rule for the stored results: more than one per round only after a failure. */
  const storedTwice = async () => {
    const rows = await observer.db
      .selectFrom('check_results')
      .select(['monitor_id', 'round', 'outcome'])
      .orderBy('id')
      .execute();
    const byRound = new Map<string, string[]>();
    for (const r of rows) {
      const key = `${r.monitor_id}:${r.round}`;
      byRound.set(key, [...(byRound.get(key) ?? []), decodeOutcome(r.outcome)]);
    }
    return [...byRound].filter(([, o]) => o.slice(0, -1).some((outcome) => outcome === 'up'));
  };

  /** Rounds of every monitor due in [from, to) that no request reached (after from). */
  const skippedRounds = (from: number, to: number) => {
    const counts = hitsPerRound(from, Date.now());
    const skipped: string[] = [];
    for (const id of keyOf.keys()) {
      for (let r = roundAt(id, INTERVAL_MS, from) + 1; dueOf(id, INTERVAL_MS, r) < to; r++) {
        if (!counts.has(`${id}:${r}`)) skipped.push(`${id}:${r}`);
      }
    }
    return skipped;
  };

  const flips = (ids: number[], to: string) =>
    observer.db
      .selectFrom('status_flips')
      .select(['monitor_id'])
      .where('monitor_id', 'in', ids)
      .where('to_status', '=', to)
      .execute();

  const deliveries = (ids: number[], kind: string) =>
    observer.db
      .selectFrom('deliveries')
      .select(['monitor_id', 'idempotency_key', 'state'])
      .where('monitor_id', 'in', ids)
      .where('event_kind', '=', kind)
      .execute();

  beforeAll(async () => {
    t = await testTarget('postgres');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cluster-'));
    observer = await openDatabase(t.target);
    repos = repositories(observer);
    target = await startHitLogTarget();
    hook = await startHttpReceiver();
    const channel = await insertChannel(observer, { url: `${hook.url}/hook` });
    for (let i = 0; i < MONITORS; i++) {
      const key = `k${i}`;
      const m = await repos.monitors.insert(
        monitorInput({ name: `Shared ${i}`, url: target.url(key), interval: 10, timeout: 3 }),
        Date.now(),
      );
      await linkChannel(observer, m.id, channel);
      idOf.set(key, m.id);
      keyOf.set(m.id, key);
    }
    const push = await repos.monitors.insert(
      PushMonitorInput.parse({ type: 'push', name: 'Silent job', interval: 10, graceSeconds: 0 }),
      Date.now(),
      newPushToken(),
    );
    await linkChannel(observer, push.id, channel);
    silentPush = push.id;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.destroy()));
    await hook?.close();
    await target?.close();
    await observer?.close();
    await t?.cleanup();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('three processes check every monitor exactly once per round, none skipped', async () => {
    const first = await start('n1');
    const from = Date.now();
    await Promise.all([start('n2'), start('n3')]);
    // Everything moves to a three-way share while the checks go on.
    await until(
      'the three to share the monitors',
      async () => {
        const byNode = [...(await owners()).values()];
        return nodes.every((n) => byNode.filter((o) => o === n).length >= 5) || undefined;
      },
      30_000,
    );
    await sleep(2 * INTERVAL_MS + 1_000);
    const to = Date.now() - 4_000;
    // The first process checked each monitor's round current at its start, then every round.
    expect(checkedTwice(from, Date.now())).toEqual([]);
    expect(skippedRounds(from + INTERVAL_MS, to)).toEqual([]);
    expect(first.alive()).toBe(true);
    expect(await storedTwice()).toEqual([]);
  }, 240_000);

  /**
   * Sends some of the victim's monitors and two of the others' down, kills the victim with
   * kill -9 a moment later, and checks the takeover: the dead process's monitors are checked
   * again within 10 s, no round is skipped, and each monitor flips, opens an incident and
   * alerts once (counted at the webhook by idempotency key).
   */
  const killWhileGoingDown = async (victim: PagewatchProcess, spared: Set<number>) => {
    const map = await owners();
    const theirs = [...map].filter(([id, n]) => n === victim && !spared.has(id)).map(([id]) => id);
    const others = [...map]
      .filter(([id, n]) => n && n !== victim && !spared.has(id))
      .map(([id]) => id);
    expect(theirs.length).toBeGreaterThan(2);
    const down = [...theirs.slice(0, 4), ...others.slice(0, 2)];
    const keys = down.map((id) => keyOf.get(id)!);
    target.setStatus(keys, 503);
    await sleep(300);
    victim.child.kill('SIGKILL');
    const killed = Date.now();
    await victim.exited;

    const firstTakeover = await until(
      'a dead process monitor to be checked again',
      () =>
        target.hits.find((h) => h.at > killed && theirs.includes(idOf.get(h.key) ?? -1))?.at ??
        undefined,
      12_000,
    );
    expect(firstTakeover - killed).toBeLessThan(10_000);
    const sentFor = async () => {
      const queued = new Set(
        (await deliveries(down, 'monitor.down')).map((d) => d.idempotency_key),
      );
      return hook.requests.filter((r) => queued.has(String(r.headers['idempotency-key'])));
    };
    await until(
      'every down monitor to flip and alert',
      async () =>
        ((await flips(down, 'down')).length >= down.length &&
          (await sentFor()).length >= down.length) ||
        undefined,
      40_000,
    );
    // Long enough for a duplicate to show up if there were one.
    await sleep(INTERVAL_MS + 2_000);
    expect(skippedRounds(killed - INTERVAL_MS, Date.now() - 4_000)).toEqual([]);
    expect((await flips(down, 'down')).map((f) => f.monitor_id).sort()).toEqual([...down].sort());
    const incidents = await observer.db
      .selectFrom('incident_monitors')
      .select('monitor_id')
      .where('monitor_id', 'in', down)
      .execute();
    expect(incidents).toHaveLength(down.length);
    const queued = await deliveries(down, 'monitor.down');
    expect(queued.map((d) => d.monitor_id).sort()).toEqual([...down].sort());
    const sent = (await sentFor()).map((r) => r.headers['idempotency-key']);
    expect(sent).toHaveLength(down.length);
    expect(new Set(sent).size).toBe(down.length);
    target.setStatus(keys, 200);
    return down;
  };

  const wentDown = new Set<number>();

  it('kill -9 while monitors go down: taken over within 10 s, no round skipped, one flip, incident and alert each', async () => {
    for (const id of await killWhileGoingDown(nodes[0]!, wentDown)) wentDown.add(id);
  }, 240_000);

  it('a second kill -9, after a newcomer joined, again loses no round and alerts once per monitor', async () => {
    await start('n4');
    await until(
      'the newcomer to take a share',
      async () =>
        [...(await owners()).values()].filter((n) => n === nodes[3]).length >= 5 || undefined,
      30_000,
    );
    for (const id of await killWhileGoingDown(nodes[1]!, wentDown)) wentDown.add(id);
    await until(
      'the monitors to come back up',
      async () => ((await flips([...wentDown], 'up')).length >= wentDown.size ? true : undefined),
      30_000,
    );
  }, 240_000);

  it('a process frozen past its lease fences itself when it wakes and checks nothing it lost', async () => {
    const frozen = nodes[2]!;
    const mark = frozen.lines.length;
    frozen.child.kill('SIGSTOP');
    const stopped = Date.now();
    await sleep(2 * EXPIRE_MS + 1_000);
    // The survivor owns every monitor meanwhile.
    const map = await owners();
    expect([...map.values()].every((n) => n === nodes[3])).toBe(true);
    frozen.child.kill('SIGCONT');
    await frozen.waitForLog('cluster: fenced', 10_000, mark);
    await sleep(INTERVAL_MS + 2_000);
    // Every round was checked once: the woken process did not run its stale plan.
    expect(checkedTwice(stopped, Date.now())).toEqual([]);
    expect(skippedRounds(stopped, Date.now() - 4_000)).toEqual([]);
    expect(await storedTwice()).toEqual([]);
    // It rejoins and takes a share again.
    await until(
      'the woken process to take a share again',
      async () => [...(await owners()).values()].some((n) => n === frozen) || undefined,
      30_000,
    );
  }, 90_000);

  it('a 15 s stall of the lease table: no duplicate round, no false DOWN, checks resume', async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const schema = t.target.kind === 'postgres' ? t.target.schema : '';
    const downBefore = (await flips([...keyOf.keys()], 'down')).length;
    const from = Date.now();
    try {
      await admin.query('begin');
      await admin.query(`lock table ${schema}.cluster_partitions in access exclusive mode`);
      await sleep(15_000);
    } finally {
      await admin.query('commit').catch(() => {});
      await admin.end();
    }
    const released = Date.now();
    // Checks resume: every monitor is checked within two intervals of the lock's release.
    await until(
      'every monitor to be checked after the stall',
      () => {
        const seen = new Set(target.hits.filter((h) => h.at > released).map((h) => h.key));
        return seen.size === MONITORS || undefined;
      },
      2 * INTERVAL_MS + 10_000,
    );
    expect(checkedTwice(from, Date.now())).toEqual([]);
    expect((await flips([...keyOf.keys()], 'down')).length).toBe(downBefore);
    expect(await storedTwice()).toEqual([]);
  }, 90_000);

  it('a missed push deadline went down, opened an incident and alerted once through all of it', async () => {
    expect(await flips([silentPush], 'down')).toHaveLength(1);
    expect(await deliveries([silentPush], 'heartbeat.missed')).toHaveLength(1);
    const missed = await observer.db
      .selectFrom('check_results')
      .select('round')
      .where('monitor_id', '=', silentPush)
      .execute();
    // One result per round, whichever process held the monitor at the time; at most one round
    // has two: the first miss and the re-check that confirmed the DOWN, when that re-check falls
    // in the same round (at a round's end it belongs to the next).
    expect(missed.length).toBeGreaterThan(5);
    const perRound = new Map<number, number>();
    for (const r of missed) perRound.set(Number(r.round), (perRound.get(Number(r.round)) ?? 0) + 1);
    const doubled = [...perRound.values()].filter((n) => n > 1);
    expect(doubled.length).toBeLessThanOrEqual(1);
    expect(doubled.filter((n) => n > 2)).toEqual([]);
  });
});
