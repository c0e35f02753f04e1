// alerts-1000-down: 1,000 HTTP monitors on a loopback site that goes down at once (every
// monitor is checked now, and its confirming re-check flips it DOWN). Measures the time until
// a loopback webhook has all 1,000 alerts (target: within 10 s), flip → receipt per alert,
// peak RSS and the notifier's CPU per alert: the same burst is first run with no channel
// linked (checks, writes and alert decisions only) and the difference is the delivery work.
import http from 'node:http';
import { setInterval, clearInterval } from 'node:timers';
import {
  createMonitors,
  freePort,
  getJson,
  request,
  runBench,
  serverComplaints,
  sleep,
  spawnServer,
  tempDir,
  waitHealthy,
} from '../lib/run.mjs';
import {
  cpuSeconds,
  mb,
  ms,
  printEnvironment,
  printTable,
  rssBytes,
  summarize,
  verdict,
  writeResult,
} from '../lib/stats.mjs';
import {
  insertWebhook,
  linkAll,
  openDataDb,
  outboxCounts,
  startAlertPeer,
} from '../lib/alerts.mjs';

const NAME = 'alerts-1000-down';
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const TARGET_MS = 10_000;

async function checkAll(port, ids) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const res = await request(port, `/api/v1/monitors/${id}/check-now`, {
        method: 'POST',
        agent,
      });
      if (res.status >= 300) throw new Error(`check-now ${id} → ${res.status}: ${res.body}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    agent.destroy();
  }
}

async function waitStatus(port, status, count, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const list = await getJson(port, '/api/v1/monitors');
    if ((list.counts[status] ?? 0) >= count) return list;
    if (Date.now() > end) throw new Error(`not all ${status}: ${JSON.stringify(list.counts)}`);
    await sleep(100);
  }
}

await runBench(NAME, async () => {
  console.log(`${NAME}: ${MONITORS} monitors go down at once; alerts to one loopback webhook`);
  const env = printEnvironment();
  const peer = await startAlertPeer();
  const dataDir = tempDir('alerts');
  const port = await freePort();
  const server = spawnServer({ dataDir, port });
  await waitHealthy(port, server);
  const pid = server.pid;
  await createMonitors(port, MONITORS, (i) => peer.site(i), {
    interval: 3600,
    timeout: 5,
    parallel: 8,
  });
  const ids = (await waitStatus(port, 'up', MONITORS)).items.map((m) => m.id);
  const db = openDataDb(dataDir);
  const channel = insertWebhook(db, peer.hook);

  // Control: the same burst with no channel linked.
  let cpu0 = cpuSeconds(pid);
  await peer.setDown(true);
  await checkAll(port, ids);
  await waitStatus(port, 'down', MONITORS);
  const controlCpuS = cpuSeconds(pid) - cpu0;
  await peer.setDown(false);
  await checkAll(port, ids);
  await waitStatus(port, 'up', MONITORS);
  await sleep(2000);

  linkAll(db, channel);
  const rss = [];
  const rssTimer = setInterval(() => rss.push(rssBytes(pid)), 100);
  cpu0 = cpuSeconds(pid);
  const switchedAt = Date.now();
  await peer.setDown(true);
  await checkAll(port, ids);
  let downs = [];
  const deadline = Date.now() + 120_000;
  while (downs.length < MONITORS && Date.now() < deadline) {
    await sleep(50);
    downs = (await peer.received()).filter((r) => r.kind === 'monitor.down');
  }
  const cpuS = cpuSeconds(pid) - cpu0;
  clearInterval(rssTimer);
  const outbox = outboxCounts(db);
  db.close();

  const unique = new Set(downs.map((d) => d.monitorId));
  const lastAt = downs.reduce((a, d) => Math.max(a, d.at), 0);
  const firstFlip = downs.reduce((a, d) => Math.min(a, Date.parse(d.eventAt)), Infinity);
  const lastFlip = downs.reduce((a, d) => Math.max(a, Date.parse(d.eventAt)), 0);
  const delays = summarize(downs.map((d) => d.at - Date.parse(d.eventAt)));
  const allMs = lastAt - firstFlip;
  const peakRss = rss.filter((v) => v !== null).reduce((a, b) => Math.max(a, b), 0);
  const perAlertMs = (1000 * cpuS) / MONITORS;
  const controlPerMonitorMs = (1000 * controlCpuS) / MONITORS;

  printTable('the burst', [
    ['measure', 'value'],
    ['alerts received / distinct monitors', `${downs.length} / ${unique.size}`],
    ['outbox rows by state', JSON.stringify(outbox)],
    ['flips spread (first → last DOWN)', ms(lastFlip - firstFlip, 0)],
    [
      'first flip → all received',
      `${ms(allMs, 0)} (${verdict(allMs <= TARGET_MS && unique.size === MONITORS)} ≤ 10 s)`,
    ],
    ['switch → all received (incl. check-now calls)', ms(lastAt - switchedAt, 0)],
    [
      'flip → receipt p50 / p99 / max',
      `${ms(delays.p50, 0)} / ${ms(delays.p99, 0)} / ${ms(delays.max, 0)}`,
    ],
    ['peak RSS during the burst', mb(peakRss)],
    ['server CPU per alert, burst with the webhook', ms(perAlertMs, 2)],
    ['server CPU per monitor, same burst without a channel', ms(controlPerMonitorMs, 2)],
    ['notifier overhead per alert (difference)', ms(perAlertMs - controlPerMonitorMs, 2)],
  ]);
  const complaints = serverComplaints(server);
  if (complaints.length > 0) console.log(`server warnings:\n${complaints.slice(0, 10).join('\n')}`);
  writeResult(
    NAME,
    {
      monitors: MONITORS,
      received: downs.length,
      distinct: unique.size,
      outbox,
      flipSpreadMs: lastFlip - firstFlip,
      allReceivedMs: allMs,
      switchToAllMs: lastAt - switchedAt,
      flipToReceiptMs: delays,
      peakRssBytes: peakRss,
      cpuMsPerAlert: perAlertMs,
      controlCpuMsPerMonitor: controlPerMonitorMs,
      notifierCpuMsPerAlert: perAlertMs - controlPerMonitorMs,
      met: allMs <= TARGET_MS && unique.size === MONITORS,
    },
    env,
  );
  if (unique.size !== MONITORS)
    throw new Error(`only ${unique.size} of ${MONITORS} monitors alerted`);
});
