// auth: what sign-in costs. (1) Authentication added to every API request, read from the
// server's own `Server-Timing: auth;dur=…` header over 1,000 requests with an API key and with
// a session cookie (cache warm, as in steady use). (2) POST /api/v1/auth/login wall time at
// the chosen argon2id cost. Targets: ≤ 0.2 ms median added per request; login ≤ 300 ms.
import http from 'node:http';
import {
  ensureSignedIn,
  freePort,
  now,
  preflight,
  request,
  runBench,
  serverComplaints,
  spawnServer,
  stopChild,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  ms,
  printEnvironment,
  printTable,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const LOGINS = Number(process.env.BENCH_LOGINS ?? 30);
const OVERHEAD_TARGET_MS = 0.2;
const LOGIN_TARGET_MS = 300;
const OWNER = { email: 'bench@example.com', password: 'bench passphrase 0123' };

const authDur = (res) =>
  Number(/auth;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''))?.[1] ?? NaN);

async function signInCookie(port) {
  const res = await request(port, '/api/v1/auth/login', {
    method: 'POST',
    body: OWNER,
    headers: { authorization: '' },
  });
  if (res.status !== 200) throw new Error(`login → ${res.status}: ${res.body}`);
  return { res, cookie: String([res.headers['set-cookie']].flat()[0]).split(';')[0] };
}

/** Sequential keep-alive GETs; returns total latencies and the server's auth durations. */
async function measure(port, path, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const total = [];
  const auth = [];
  try {
    for (let i = 0; i < REQUESTS + 50; i++) {
      const res = await request(port, path, { headers, agent });
      if (res.status !== 200) throw new Error(`${path} → ${res.status}: ${res.body}`);
      if (i < 50) continue; // warm-up
      total.push(res.ms);
      if (!Number.isNaN(authDur(res))) auth.push(authDur(res));
    }
  } finally {
    agent.destroy();
  }
  return { total: summarize(total), auth: auth.length ? summarize(auth) : null };
}

await runBench('auth', async () => {
  const env = printEnvironment();
  await preflight();
  const port = await freePort();
  // The server reports its auth figures (Server-Timing) in development only.
  const child = spawnServer({ dataDir: tempDir('auth'), port, env: { NODE_ENV: 'development' } });
  await waitHealthy(port, child);
  await ensureSignedIn(port);
  const created = await request(port, '/api/v1/monitors', {
    method: 'POST',
    body: { type: 'http', name: 'bench', url: 'http://127.0.0.1:9/', paused: true },
  });
  const monitorPath = `/api/v1/monitors/${JSON.parse(String(created.body)).id}`;

  const { cookie } = await signInCookie(port);
  const rows = [
    [
      'public route, no auth (/api/v1/auth/status)',
      await measure(port, '/api/v1/auth/status', { authorization: '' }),
    ],
    ['API key (Bearer)', await measure(port, monitorPath, {})],
    ['session cookie', await measure(port, monitorPath, { cookie })],
  ];

  const logins = [];
  for (let i = 0; i < LOGINS; i++) {
    const t0 = now();
    await signInCookie(port);
    logins.push(now() - t0);
  }
  const login = summarize(logins);
  const complaints = serverComplaints(child);
  await stopChild(child);

  printTable(`GET, ${REQUESTS} sequential keep-alive requests after 50 warm-up`, [
    ['credentials', 'total p50', 'total p99', 'auth p50', 'auth p99', 'auth max'],
    ...rows.map(([label, r]) => [
      label,
      ms(r.total.p50),
      ms(r.total.p99),
      r.auth ? `${r.auth.p50.toFixed(3)} ms` : '–',
      r.auth ? `${r.auth.p99.toFixed(3)} ms` : '–',
      r.auth ? `${r.auth.max.toFixed(3)} ms` : '–',
    ]),
  ]);
  printTable(`POST /api/v1/auth/login, ${LOGINS} sign-ins (argon2id m=19 MiB, t=2, p=1)`, [
    ['p50', 'p95', 'max', 'target', 'verdict'],
    [
      ms(login.p50),
      ms(login.p95),
      ms(login.max),
      `≤ ${LOGIN_TARGET_MS} ms`,
      verdict(login.p50 <= LOGIN_TARGET_MS),
    ],
  ]);
  const worstAuth = Math.max(...rows.slice(1).map(([, r]) => r.auth?.p50 ?? Infinity));
  console.log(
    `\nauthentication added, median: ${worstAuth.toFixed(3)} ms (target ≤ ${OVERHEAD_TARGET_MS} ms: ${verdict(worstAuth <= OVERHEAD_TARGET_MS)})`,
  );
  if (complaints.length) console.log(`server complaints:\n${complaints.join('\n')}`);
  writeResult(
    'auth',
    {
      requests: REQUESTS,
      perCredential: Object.fromEntries(rows.map(([label, r]) => [label, r])),
      loginMs: login,
      met: { overhead: worstAuth <= OVERHEAD_TARGET_MS, login: login.p50 <= LOGIN_TARGET_MS },
      complaints,
    },
    env,
  );
});
