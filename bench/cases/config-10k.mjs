// config-10k: monitors as code at 10,000 monitors (issue 15). On a fresh server (web role, so no
// check runs), through the REST API as `npx pagewatch` calls it: plan and apply of a document of
// 10,000 HTTP monitors, 3 channels, a status page and a maintenance window; export of the
// result; plan and apply again unchanged, then with 1,000 monitors edited; plan after 100 edits
// in the UI (drift). Bar: export, plan and apply each ≤ 5 s.
//
// BENCH_MONITORS (10000), BENCH_ENGINE (sqlite | postgres | both, the default); PostgreSQL is
// BENCH_POSTGRES_URL or the local test database, in a schema of its own dropped afterwards.
import { benchSchema, pgReachable, postgresUrl } from '../lib/postgres.mjs';
import {
  ensureSignedIn,
  freePort,
  onCleanup,
  request,
  runBench,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  cpuSeconds,
  mb,
  ms,
  printEnvironment,
  printTable,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const NAME = 'config-10k';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const ENGINE = process.env.BENCH_ENGINE ?? 'both';
const ENGINES = ENGINE === 'both' ? ['sqlite', 'postgres'] : [ENGINE];
const BAR_MS = 5000;
const EDITED = Math.min(1000, MONITORS);
const DRIFTED = Math.min(100, MONITORS);

const key = (i) => `m-${String(i).padStart(5, '0')}`;

/** The document: every monitor alerts through one of three channels, 1 in 10 on the page. */
function documentOf(edited = 0) {
  const monitors = Array.from({ length: MONITORS }, (_, i) => ({
    key: key(i),
    type: 'http',
    name: `Service ${i}`,
    url: `http://127.0.0.1:9/s/${i}`,
    interval: i < edited ? 120 : 60,
    timeout: 10,
    tags: [`team-${i % 20}`, i % 2 ? 'prod' : 'staging'],
    acceptedStatusCodes: ['200-299'],
    assertions: [{ kind: 'keyword', value: 'ok' }],
    channels: [`hook-${i % 3}`],
  }));
  return {
    version: 1,
    channels: [0, 1, 2].map((c) => ({
      key: `hook-${c}`,
      kind: 'webhook',
      name: `Hook ${c}`,
      config: { url: `http://127.0.0.1:9/hook/${c}` },
    })),
    monitors,
    statusPages: [
      {
        key: 'public',
        slug: 'public',
        title: 'Public status',
        // Five sections of 100 components: a large public page.
        sections: [0, 1, 2, 3, 4].map((s) => ({
          title: `Services ${s}`,
          components: monitors.slice(s * 100, s * 100 + 100).map((m) => ({ monitor: m.key })),
        })),
      },
    ],
    maintenance: [],
  };
}

/** POSTs to the config API; resolves with the time and the answer, or throws with the error. */
async function call(port, path, body) {
  const res = await request(port, path, { method: 'POST', body, timeoutMs: 300_000 });
  if (res.status !== 200)
    throw new Error(`${path} → ${res.status}: ${String(res.body).slice(0, 2000)}`);
  return { ms: res.ms, body: JSON.parse(String(res.body)), bytes: res.body.length };
}

const count = (report, kind, what) => report[kind][what].length;

async function runEngine(engine) {
  const env = { PAGEWATCH_ROLES: 'web' };
  if (engine === 'postgres') {
    const { schema, drop } = await benchSchema();
    onCleanup(drop);
    Object.assign(env, { PAGEWATCH_DATABASE_URL: postgresUrl, PAGEWATCH_DATABASE_SCHEMA: schema });
  }
  const port = await freePort();
  const server = spawnServer({ dataDir: tempDir('config-10k'), port, env });
  onCleanup(() => stopChild(server));
  await waitHealthy(port, server);
  await ensureSignedIn(port);

  const rows = [];
  // The server's CPU time per step as well: on a loaded machine it says more than the clock.
  let cpuMark = cpuSeconds(server.pid);
  const step = (what, t, detail) => {
    const cpu = cpuSeconds(server.pid);
    rows.push({ what, ms: t, cpuMs: (cpu - cpuMark) * 1000, detail });
    cpuMark = cpu;
  };
  const doc = documentOf();
  const plan1 = await call(port, '/api/v1/config/plan', { document: doc });
  step('plan (all new)', plan1.ms, `${plan1.body.summary.create} to create`);
  const apply1 = await call(port, '/api/v1/config/apply', {
    document: doc,
    planToken: plan1.body.token,
  });
  step(
    'apply (create)',
    apply1.ms,
    `${count(apply1.body, 'monitors', 'created')} monitors created`,
  );
  const exported = await request(port, '/api/v1/export?format=json', { timeoutMs: 300_000 });
  if (exported.status !== 200) throw new Error(`export → ${exported.status}`);
  step('export', exported.ms, mb(exported.body.length));
  const plan2 = await call(port, '/api/v1/config/plan', { document: doc });
  step('plan (unchanged)', plan2.ms, `${plan2.body.summary.unchanged} unchanged`);
  const apply2 = await call(port, '/api/v1/config/apply', { document: doc });
  step('apply (unchanged)', apply2.ms, `${count(apply2.body, 'monitors', 'unchanged')} unchanged`);
  const edited = documentOf(EDITED);
  const plan3 = await call(port, '/api/v1/config/plan', { document: edited });
  step(`plan (${EDITED} edited)`, plan3.ms, `${plan3.body.summary.update} to update`);
  const apply3 = await call(port, '/api/v1/config/apply', { document: edited });
  step(
    `apply (${EDITED} edited)`,
    apply3.ms,
    `${count(apply3.body, 'monitors', 'updated')} updated`,
  );
  // Edits in the UI of file-managed monitors: the next plan shows them as drift.
  const firstIds = await managedIds(port, DRIFTED);
  const before = cpuSeconds(server.pid);
  for (const id of firstIds) {
    const res = await request(port, `/api/v1/monitors/${id}/pause`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`pause ${id} → ${res.status}: ${res.body}`);
  }
  cpuMark += cpuSeconds(server.pid) - before; // the pauses are not the plan's
  const plan4 = await call(port, '/api/v1/config/plan', { document: edited });
  step(`plan (${DRIFTED} drifted)`, plan4.ms, `${plan4.body.summary.drift} drifted`);
  await stopChild(server);
  return rows;
}

/** The ids of the first `n` config-managed monitors. */
async function managedIds(port, n) {
  const res = await request(port, '/api/v1/config/managed', { timeoutMs: 60_000 });
  if (res.status !== 200) throw new Error(`managed → ${res.status}: ${res.body}`);
  return JSON.parse(String(res.body))
    .monitors.slice(0, n)
    .map((r) => r.id);
}

await runBench(NAME, async () => {
  const env = printEnvironment();
  const results = {};
  for (const engine of ENGINES) {
    if (engine === 'postgres' && !(await pgReachable())) {
      console.log(`PostgreSQL at ${postgresUrl} is unreachable: skipped`);
      continue;
    }
    const rows = await runEngine(engine);
    results[engine] = rows;
    printTable(`${engine}: ${MONITORS} monitors as code`, [
      ['step', 'time', 'server CPU', 'what', '≤ 5 s'],
      ...rows.map((r) => [r.what, ms(r.ms), ms(r.cpuMs), r.detail, verdict(r.ms <= BAR_MS)]),
    ]);
  }
  const met = Object.values(results).every((rows) => rows.every((r) => r.ms <= BAR_MS));
  writeResult(NAME, { settings: { MONITORS, ENGINES }, results, met }, env);
});
