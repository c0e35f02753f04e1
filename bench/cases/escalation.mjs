// escalation: what escalation policies cost (ADR 39). Issue 18: evaluating policies adds
// ≤ 0.05 ms per result at 10,000 monitors, and an escalation step fires within 5 s of its due
// time (p99).
//  1. Result writes of BENCH_MONITORS monitors (default 10,000) in batches of 500: one round up,
//     then one round where every monitor goes DOWN, for monitors without a policy and for as
//     many with one (step 0 at once to a channel). Reported: CPU per result of each, and the
//     difference the policy makes, for the up round (every result pays the rules read) and the
//     DOWN round (an escalation row and its first step's delivery per monitor).
//  2. BENCH_ESCALATIONS (default 1,000) escalations due at random times over the next 20 s,
//     fired by the production job polling every second; reported: how late each step fired.
// BENCH_SERVER_DIST points at another build of the server (default server/dist).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { runBench, sleep, tempDir } from '../lib/run.mjs';
import { percentiles, printEnvironment, printTable, writeResult } from '../lib/stats.mjs';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ESCALATIONS = Number(process.env.BENCH_ESCALATIONS ?? 1000);
const BATCH = 500;
const TARGET_POLICY_US = 50;
const TARGET_LATE_MS = 5000;
const distRoot = path.resolve(process.env.BENCH_SERVER_DIST ?? 'server/dist');
const dist = (p) => import(pathToFileURL(path.join(distRoot, p)).href);
const silent = { warn() {}, debug() {}, info() {}, error() {} };

await runBench('escalation', async () => {
  const { openDatabase } = await dist('db/database.js');
  const { repositories } = await dist('db/repositories/index.js');
  const { startEscalationJob } = await dist('escalation/job.js');
  const { HttpMonitorInput } = await import('@pagewatch/contract');
  const file = path.join(tempDir('escalation'), 'pagewatch.db');
  const database = await openDatabase({ kind: 'sqlite', file });
  try {
    const repos = repositories(database);
    const now0 = Date.now();
    const channel = await database.db
      .insertInto('notification_channels')
      .values({
        name: 'Team',
        kind: 'webhook',
        config: JSON.stringify({ url: 'http://127.0.0.1:9/hook', method: 'POST', headers: [] }),
        secrets: null,
        template: null,
        is_default: 0,
        enabled: 1,
        created_at: now0,
        updated_at: now0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const policyId = await repos.escalations.createPolicy(
      {
        name: 'Bench',
        steps: [
          { waitMinutes: 0, targets: [{ kind: 'channel', channelId: Number(channel.id) }] },
          { waitMinutes: 10, targets: [{ kind: 'monitor_channels' }] },
        ],
        repeat: 0,
        quietHours: [],
      },
      now0,
    );
    const seed = async (withPolicy) => {
      const ids = [];
      for (let i = 0; i < MONITORS; i += 1) {
        const input = HttpMonitorInput.parse({
          type: 'http',
          name: `${withPolicy ? 'p' : 'n'}${i}`,
          url: `http://127.0.0.1:9/${i}`,
          alerts: withPolicy ? { escalationPolicyId: policyId } : {},
        });
        const m = await repos.monitors.insert(input, now0);
        ids.push(m.id);
      }
      await database.db
        .insertInto('monitor_channels')
        .values(ids.map((monitor_id) => ({ monitor_id, channel_id: Number(channel.id) })))
        .execute()
        .catch(() => {});
      return ids;
    };
    const plain = await seed(false);
    const routed = await seed(true);
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 60_000;

    /** CPU µs per result of one round of `ids` with this outcome. */
    const round = async (ids, r, outcome) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < ids.length; i += BATCH) {
        const writes = ids.slice(i, i + BATCH).map((monitorId, k) => {
          const at = start + r * 60_000 + ((i + k) % 50_000);
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
        });
        await repos.results.writeBatch(writes);
      }
      const cpu = process.cpuUsage(cpu0);
      return { cpuUs: (cpu.user + cpu.system) / ids.length, wallMs: performance.now() - t0 };
    };
    const figures = {};
    for (const [name, ids] of [
      ['plain', plain],
      ['routed', routed],
    ]) {
      figures[name] = { up: await round(ids, 0, 'up'), down: await round(ids, 1, 'down') };
    }
    const escalationRows = Number(
      (
        await database.db
          .selectFrom('escalations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (escalationRows !== MONITORS)
      throw new Error(`${escalationRows} escalations, expected ${MONITORS}`);

    // 2. Step lateness: due times spread over 20 s, the production job on the real clock.
    const t = Date.now();
    await database.db.updateTable('escalations').set({ next_due_at: null }).execute();
    const ids = (
      await database.db.selectFrom('escalations').select('id').limit(ESCALATIONS).execute()
    ).map((r) => Number(r.id));
    for (let i = 0; i < ids.length; i += BATCH) {
      await database.db.transaction().execute(async (trx) => {
        for (const id of ids.slice(i, i + BATCH)) {
          await trx
            .updateTable('escalations')
            .set({ next_step: 1, next_due_at: t + 2000 + Math.floor(Math.random() * 20_000) })
            .where('id', '=', id)
            .execute();
        }
      });
    }
    const late = [];
    const job = startEscalationJob(repos, { now: () => Date.now() }, silent, {
      pollMs: 1000,
      onFired: (ms) => late.push(ms),
    });
    const deadline = Date.now() + 60_000;
    while (late.length < ids.length && Date.now() < deadline) await sleep(250);
    await job.stop();
    const { 50: p50, 99: p99, 100: max } = percentiles(late, [50, 99, 100]);

    const policyUpUs = figures.routed.up.cpuUs - figures.plain.up.cpuUs;
    const policyDownUs = figures.routed.down.cpuUs - figures.plain.down.cpuUs;
    printEnvironment();
    printTable(
      `escalation on sqlite: ${MONITORS} monitors with and without a policy, batches of ${BATCH}`,
      [
        ['round', 'without policy', 'with policy', 'policy adds'],
        [
          'up',
          `${figures.plain.up.cpuUs.toFixed(0)} µs`,
          `${figures.routed.up.cpuUs.toFixed(0)} µs`,
          `${policyUpUs.toFixed(1)} µs`,
        ],
        [
          'DOWN',
          `${figures.plain.down.cpuUs.toFixed(0)} µs`,
          `${figures.routed.down.cpuUs.toFixed(0)} µs`,
          `${policyDownUs.toFixed(1)} µs`,
        ],
      ],
    );
    printTable(`escalation steps fired by the job (poll 1 s): ${late.length} of ${ids.length}`, [
      ['p50', 'p99', 'max'],
      [`${p50?.toFixed(0)} ms`, `${p99?.toFixed(0)} ms`, `${max?.toFixed(0)} ms`],
    ]);
    console.log(
      `policy evaluation per up result: ${(policyUpUs / 1000).toFixed(3)} ms (target ≤ ${TARGET_POLICY_US / 1000} ms): ${policyUpUs <= TARGET_POLICY_US ? 'met' : 'MISSED'}`,
    );
    console.log(
      `step lateness p99: ${p99?.toFixed(0)} ms (target ≤ ${TARGET_LATE_MS} ms): ${late.length === ids.length && p99 <= TARGET_LATE_MS ? 'met' : 'MISSED'}`,
    );
    writeResult('escalation', {
      monitors: MONITORS,
      figures,
      policyUpUs,
      policyDownUs,
      late: { n: late.length, of: ids.length, p50, p99, max },
    });
  } finally {
    await database.close();
  }
});
