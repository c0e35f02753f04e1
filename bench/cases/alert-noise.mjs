// alert-noise: what dependencies and grouping cost and what they save (ADR 41, 42). Issue 18:
// evaluating dependencies and grouping adds ≤ 0.05 ms per result at 10,000 monitors, and
// 1,000 monitors behind one parent going down produce ≤ 1 message per channel.
//  1. Result writes of BENCH_MONITORS monitors (default 10,000) in batches of 500: one round up,
//     then one round where every monitor goes DOWN, for monitors without dependencies and for
//     as many that each depend on a parent (half of them on a parent that is down: held; half
//     on one that is up: announced into their group's batch). Reported: CPU per result and the
//     difference dependencies and grouping make, for the up round and the DOWN round.
//  2. BENCH_CHILDREN (default 1,000) monitors behind one parent on two channels: half fail
//     before the parent, then the parent, then the rest, all within the window; the grouping
//     job flushes. Reported: messages queued per channel (target ≤ 1).
//  3. Group monitors following their members (ADR 47's addendum): groups of 100 over the first
//     half of the plain monitors, one round up and one DOWN with the writer's hook on (every
//     result a flip), lookups debounced by 1 s as in production. Reported: CPU per result of
//     the hook and the lookups of the groups to check.
// BENCH_SERVER_DIST points at another build of the server (default server/dist).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runBench, sleep, tempDir } from '../lib/run.mjs';
import { printEnvironment, printTable, writeResult } from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 1000);
const BATCH = 500;
const TARGET_US = 50;
const distRoot = path.resolve(process.env.BENCH_SERVER_DIST ?? 'server/dist');
const dist = (p) => import(pathToFileURL(path.join(distRoot, p)).href);

await runBench('alert-noise', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const file = path.join(tempDir('alert-noise'), 'pagewatch.db');
  const database = await openDatabase({ kind: 'sqlite', file });
  try {
    const repos = repositories(database);
    const now0 = Date.now();
    const channel = async (name) =>
      Number(
        (
          await database.db
            .insertInto('notification_channels')
            .values({
              name,
              kind: 'webhook',
              config: JSON.stringify({
                url: 'http://127.0.0.1:9/hook',
                method: 'POST',
                headers: [],
              }),
              secrets: null,
              template: null,
              is_default: 0,
              enabled: 1,
              created_at: now0,
              updated_at: now0,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const channels = [await channel('Team'), await channel('Ops')];
    const seed = async (prefix, n) => {
      const ids = [];
      for (let i = 0; i < n; i += 1) {
        const input = HttpMonitorInput.parse({
          type: 'http',
          name: `${prefix}${i}`,
          url: `http://127.0.0.1:9/${i}`,
          retries: 0,
        });
        ids.push((await repos.monitors.insert(input, now0)).id);
      }
      for (let i = 0; i < ids.length; i += BATCH) {
        await database.db
          .insertInto('monitor_channels')
          .values(
            ids
              .slice(i, i + BATCH)
              .flatMap((monitor_id) => channels.map((channel_id) => ({ monitor_id, channel_id }))),
          )
          .execute();
      }
      return ids;
    };
    const link = async (children, parent) => {
      for (let i = 0; i < children.length; i += BATCH) {
        await database.db
          .insertInto('monitor_parents')
          .values(
            children.slice(i, i + BATCH).map((monitor_id) => ({ monitor_id, parent_id: parent })),
          )
          .execute();
      }
    };
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
    const writeOf = (monitorId, r, outcome, at) => {
      const down = outcome === 'down';
      return {
        monitorId,
        at,
        run: {
          outcome,
          latencyMs: 3,
          phases: { dns: null, connect: 0.4, tls: null, ttfb: 2.1, download: 0.2 },
          httpStatus: down ? 503 : 200,
          errorCode: down ? 'http_status' : null,
          errorMessage: down ? 'HTTP 503' : null,
          responseSize: 2,
          certExpiresAt: null,
        },
        status: outcome,
        failures: down ? 1 : 0,
        recent: [[outcome, 1]],
        flip: { from: r === 0 ? 'pending' : 'up', to: outcome },
        round: { round: r + 1, roundDue: at, attempt: 0 },
      };
    };
    /** CPU µs per result of one round of `ids` with this outcome; `hook` hears each batch. */
    const round = async (ids, r, outcome, hook) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < ids.length; i += BATCH) {
        const writes = ids
          .slice(i, i + BATCH)
          .map((id, k) => writeOf(id, r, outcome, start + r * 60_000 + ((i + k) % 50_000)));
        const written = await repos.results.writeBatch(writes);
        hook?.(written);
      }
      const cpu = process.cpuUsage(cpu0);
      return { cpuUs: (cpu.user + cpu.system) / ids.length, wallMs: performance.now() - t0 };
    };

    // 1. Cost per result.
    const [downParent, upParent] = await seed('parent', 2);
    await round([downParent, upParent], 0, 'up');
    await round([downParent], 1, 'down');
    const plain = await seed('n', MONITORS);
    const linked = await seed('c', MONITORS);
    await link(linked.slice(0, MONITORS / 2), downParent);
    await link(linked.slice(MONITORS / 2), upParent);
    // A warm-up of every path first, so the first set measured does not pay for the JIT.
    const warm = await seed('w', 2 * BATCH);
    await link(warm.slice(0, BATCH / 2), downParent);
    await link(warm.slice(BATCH / 2, BATCH), upParent);
    await round(warm, 2, 'up');
    await round(warm, 3, 'down');
    const figures = {};
    const h = MONITORS / 2;
    // Each half on its own: a held DOWN (parent down) writes no alert, a grouped one (parent
    // up) writes a batch item instead of a delivery per channel; the worst case counts.
    for (const [name, ids] of [
      ['plain', plain.slice(0, h)],
      ['held', linked.slice(0, h)],
      ['grouped', linked.slice(h)],
    ]) {
      figures[name] = { up: await round(ids, 2, 'up'), down: await round(ids, 3, 'down') };
    }
    const addedUpUs =
      Math.max(figures.held.up.cpuUs, figures.grouped.up.cpuUs) - figures.plain.up.cpuUs;
    const addedDownUs =
      Math.max(figures.held.down.cpuUs, figures.grouped.down.cpuUs) - figures.plain.down.cpuUs;

    // 3. Groups following their members: the hook's CPU and its debounced lookups, per result.
    const { GroupTriggers } = await dist('engine/group-triggers.js');
    const { referencingTypes } = await dist('domain/monitor-types.js');
    const { GroupMonitorInput } = await import('@pagewatch/contract');
    const groups = h / 100;
    for (let g = 0; g < groups; g += 1) {
      const members = plain.slice(g * 100, g * 100 + 100);
      await repos.monitors.insert(
        GroupMonitorInput.parse({ type: 'group', name: `group${g}`, members, interval: 300 }),
        now0,
      );
    }
    const follow = { hookUs: 0, lookupUs: 0, lookups: 0, triggered: 0 };
    const cpuOf = (c) => c.user + c.system;
    const triggers = new GroupTriggers({
      referencing: (ids) => {
        follow.lookups += 1;
        return repos.groupMembers.referencing(ids, referencingTypes);
      },
      runNow: async () => {
        follow.triggered += 1;
      },
      logger: { warn() {}, debug() {}, info() {}, error() {} },
    });
    const hook = (written) => {
      const c0 = process.cpuUsage();
      triggers.noteWritten(written);
      follow.hookUs += cpuOf(process.cpuUsage(c0));
    };
    await round(plain.slice(0, h), 4, 'up', hook);
    await round(plain.slice(0, h), 5, 'down', hook);
    await sleep(1_500); // the last debounce ends
    await triggers.stop();
    // A lookup's CPU measured alone (during the rounds it interleaves with the writes), for
    // the largest set of flipped members: every one of the half.
    const c0 = process.cpuUsage();
    for (let i = 0; i < 5; i += 1)
      await repos.groupMembers.referencing(plain.slice(0, h), referencingTypes);
    follow.lookupUs = cpuOf(process.cpuUsage(c0)) / 5;
    const followUs = (follow.hookUs + follow.lookups * follow.lookupUs) / (2 * h);

    // Flush what the linked round collected, so part 2 starts from no open batch.
    await repos.alertGroups.flushDue(Date.now() + 3_600_000, 100_000);

    // 2. 1,000 monitors behind one switch.
    const [sw] = await seed('switch', 1);
    const children = await seed('host', CHILDREN);
    await link(children, sw);
    await round([sw, ...children], 5, 'up');
    const deliveriesBefore = Number(
      (
        await database.db
          .selectFrom('deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const half = Math.floor(CHILDREN / 2);
    await round(children.slice(0, half), 6, 'down');
    await round([sw], 6, 'down');
    await round(children.slice(half), 6, 'down');
    const queuedAtOnce =
      Number(
        (
          await database.db
            .selectFrom('deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ) - deliveriesBefore;
    const flushed = await repos.alertGroups.flushDue(Date.now() + 3_600_000, 100_000);
    const perChannel = await database.db
      .selectFrom('deliveries')
      .select(['channel_id', (eb) => eb.fn.countAll().as('n')])
      .where('order_key', '=', `g:d:${sw}`)
      .groupBy('channel_id')
      .execute();
    const messages = Object.fromEntries(perChannel.map((r) => [Number(r.channel_id), Number(r.n)]));
    const maxPerChannel = Math.max(0, ...Object.values(messages));

    printEnvironment();
    printTable(
      `alert-noise on sqlite: ${MONITORS} monitors with a parent (half of it down) against ${MONITORS / 2} without, halves of ${MONITORS / 2} in batches of ${BATCH}`,
      [
        ['round', 'no dependencies', 'parent down (held)', 'parent up (grouped)', 'added (worst)'],
        ...['up', 'down'].map((k) => [
          k === 'up' ? 'up' : 'DOWN',
          `${figures.plain[k].cpuUs.toFixed(0)} µs`,
          `${figures.held[k].cpuUs.toFixed(0)} µs`,
          `${figures.grouped[k].cpuUs.toFixed(0)} µs`,
          `${(k === 'up' ? addedUpUs : addedDownUs).toFixed(1)} µs`,
        ]),
      ],
    );
    printTable(`${CHILDREN} monitors behind one switch going down, 2 channels`, [
      ['queued at once', 'grouped messages', 'per channel (max)'],
      [String(queuedAtOnce), String(flushed), String(maxPerChannel)],
    ]);
    console.log(
      `dependencies and grouping per up result: ${(addedUpUs / 1000).toFixed(3)} ms, per DOWN result: ${(addedDownUs / 1000).toFixed(3)} ms (target ≤ ${TARGET_US / 1000} ms): ${Math.max(addedUpUs, addedDownUs) <= TARGET_US ? 'met' : 'MISSED'}`,
    );
    console.log(
      `groups following members per result: ${(followUs / 1000).toFixed(4)} ms (${groups} groups of 100; hook ${follow.hookUs.toFixed(0)} µs in all, ${follow.lookups} lookups of ${follow.lookupUs.toFixed(0)} µs each, ${follow.triggered} group checks asked, over ${2 * h} results)`,
    );
    console.log(
      `messages per channel for ${CHILDREN} monitors behind one parent: ${maxPerChannel} (target ≤ 1): ${queuedAtOnce === 0 && maxPerChannel <= 1 ? 'met' : 'MISSED'}`,
    );
    writeResult('alert-noise', {
      monitors: MONITORS,
      figures,
      addedUpUs,
      addedDownUs,
      children: CHILDREN,
      queuedAtOnce,
      flushed,
      messages,
      groupFollow: { groups, ...follow, perResultUs: followUs },
    });
  } finally {
    await database.close();
  }
});
