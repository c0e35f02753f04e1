import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { clusterRepository } from '../../src/db/repositories/cluster.js';
import { postgresUrl, testTarget, type TestTarget } from '../support/engines.js';
import { until } from '../support/until.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const timings = { LEASE_RENEW_MS: '300', LEASE_EXPIRE_MS: '2400', LEASE_SKEW_MS: '400' };

interface Line {
  t: number;
  event?: string;
  id?: string;
  owned?: number[];
  grants?: [number, number][];
  name?: string;
  held?: boolean;
  msg?: string;
  member?: string;
  time?: number;
  pid?: number;
}

interface Node {
  child: ChildProcess;
  lines: Line[];
  id: () => string | undefined;
  owned: () => number[];
}

function startNode(target: TestTarget['target'], name: string): Node {
  const url = target.kind === 'postgres' ? target.url : target.file;
  // node itself (tsx as a loader), not the tsx CLI, which would run it as a grandchild.
  const args = [
    '--import',
    'tsx',
    '--conditions=@pagewatch/source',
    'server/test/support/lease-node.ts',
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      LEASE_URL: url,
      LEASE_SCHEMA: target.kind === 'postgres' ? (target.schema ?? '') : '',
      LEASE_NAME: name,
      LEASE_SINGLETONS: 'retention',
      LEASE_JOB_EVERY_MS: '300',
      LEASE_LOG_LEVEL: 'debug',
      ...timings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  let rest = '';
  child.stdout?.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Line);
  });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d.toString()}`));
  return {
    child,
    lines,
    id: () => lines.find((l) => l.event === 'ready')?.id,
    owned: () => lines.filter((l) => l.event === 'owned').at(-1)?.owned ?? [],
  };
}

const covered = (nodes: Node[]) => new Set(nodes.flatMap((n) => n.owned())).size;
const retentionRuns = (n: Node, from: number, to = Infinity) =>
  n.lines.filter(
    (l) => l.msg === 'retention: nothing expired' && (l.time ?? 0) >= from && (l.time ?? 0) < to,
  ).length;

describe.skipIf(!postgresUrl)('cluster members as real processes on PostgreSQL', () => {
  let t: TestTarget;
  let observer: Database;
  const nodes: Node[] = [];

  beforeAll(async () => {
    t = await testTarget('postgres');
    // Migrated once here, so the three processes start on a ready schema.
    observer = await openDatabase(t.target);
  });
  afterAll(async () => {
    for (const n of nodes) {
      if (n.child.exitCode === null && n.child.signalCode === null) {
        n.child.kill('SIGCONT');
        n.child.kill('SIGKILL');
      }
    }
    await observer?.close();
    await t?.cleanup();
  });

  it('three processes share 1,024 partitions and one singleton; kill -9 and SIGSTOP are survived without overlap', async () => {
    nodes.push(startNode(t.target, 'n1'), startNode(t.target, 'n2'), startNode(t.target, 'n3'));
    await until(
      'three processes to be ready',
      () => nodes.every((n) => n.id()) || undefined,
      30_000,
    );
    // The pid that signals reach is the member's own.
    for (const n of nodes) expect(n.lines.find((l) => l.event === 'ready')?.pid).toBe(n.child.pid);
    await until(
      'the three to share every partition',
      () =>
        (covered(nodes) === 1024 && nodes.every((n) => Math.abs(n.owned().length - 341) <= 4)) ||
        undefined,
      15_000,
    );

    // Retention runs once per period in the whole deployment, not once per process.
    const from = Date.now();
    await sleep(1_500);
    const runs = nodes.map((n) => retentionRuns(n, from, Date.now()));
    expect(runs.filter((r) => r > 0)).toHaveLength(1);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    expect(runs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1_500 / 300 + 2);

    // kill -9 the process running the singleton: the two others cover everything within 10 s.
    const holder = nodes[runs.findIndex((r) => r > 0)]!;
    const others = nodes.filter((n) => n !== holder);
    holder.child.kill('SIGKILL');
    const killed = Date.now();
    await until(
      'the survivors to own every partition',
      () => covered(others) === 1024 || undefined,
      10_000,
    );
    expect(Date.now() - killed).toBeLessThan(10_000);
    await until(
      'another process to run retention',
      () => others.some((n) => retentionRuns(n, killed) > 0) || undefined,
      10_000,
    );
    const repo = clusterRepository(observer.db, observer.engine);
    const rows = await repo.partitions.table();
    const ids = new Set(others.map((n) => n.id()));
    expect(rows.every((r) => ids.has(r.owner ?? '') && r.expiresAt > r.now)).toBe(true);
    await until(
      'the two to balance',
      () => others.every((n) => Math.abs(n.owned().length - 512) <= 4) || undefined,
      15_000,
    );

    // SIGSTOP one past its expiry: the other takes everything; woken, it fences first.
    const [paused, awake] = others as [Node, Node];
    const heldBefore = paused.owned();
    expect(heldBefore.length).toBeGreaterThan(0);
    paused.child.kill('SIGSTOP');
    await until(
      'the awake process to take over',
      () => awake.owned().length === 1024 || undefined,
      10_000,
    );
    const resumedAt = paused.lines.length;
    paused.child.kill('SIGCONT');
    await until(
      'the paused process to report it fenced itself',
      () => paused.lines.slice(resumedAt).some((l) => l.event === 'fenced') || undefined,
    );
    const after = paused.lines.slice(resumedAt);
    const firstFence = after.findIndex((l) => l.event === 'fenced');
    const firstAcquire = after.findIndex((l) => l.event === 'acquired');
    expect(firstAcquire === -1 || firstFence < firstAcquire).toBe(true);
    // It never claims a partition from before the pause: only ones acquired anew, new epochs.
    const fresh = new Set(after.flatMap((l) => (l.grants ?? []).map(([p]) => p)));
    for (const l of after.filter((x) => x.event === 'owned')) {
      expect(l.owned!.filter((p) => !fresh.has(p))).toEqual([]);
    }
    await until(
      'the two to share again without overlap',
      () =>
        (covered(others) === 1024 && paused.owned().length + awake.owned().length === 1024) ||
        undefined,
      15_000,
    );
    const final = await repo.partitions.table();
    for (const n of others) {
      expect(final.filter((r) => r.owner === n.id()).map((r) => r.key)).toEqual(n.owned());
    }
  }, 90_000);
});
