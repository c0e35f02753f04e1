// Shared by the alert benchmarks: the peer process, a webhook channel written straight into
// the server's SQLite file (the channels API is not needed to measure the outbox), and reads.
import path from 'node:path';
import Database from 'better-sqlite3';
import { request, root, spawnNode } from './run.mjs';

/** bench/lib/alert-peer.mjs in its own process; `delayMs` slows its webhook answers. */
export async function startAlertPeer({ delayMs = 0 } = {}) {
  const child = spawnNode([path.join(root, 'bench/lib/alert-peer.mjs')], {
    label: 'alert-peer',
    env: { BENCH_HOOK_DELAY_MS: String(delayMs) },
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('alert peer did not start')), 10_000);
    child.stdout.once('data', (chunk) => {
      clearTimeout(timer);
      resolve(JSON.parse(String(chunk).split('\n')[0]).port);
    });
  });
  return {
    child,
    port,
    site: (p) => `http://127.0.0.1:${port}/site/${p}`,
    hook: `http://127.0.0.1:${port}/hook`,
    setDown: (down) => request(port, `/__mode?down=${down ? 1 : 0}`, { method: 'POST' }),
    received: async () =>
      JSON.parse(String((await request(port, '/__alerts')).body)).received.map(
        ([at, kind, monitorId, eventAt]) => ({ at, kind, monitorId, eventAt }),
      ),
  };
}

/** Opens the server's database file beside the running server (WAL allows it). */
export function openDataDb(dataDir) {
  const db = new Database(path.join(dataDir, 'pagewatch.db'));
  db.pragma('busy_timeout = 10000');
  return db;
}

/** A webhook channel to `url`; returns its id. */
export function insertWebhook(db, url) {
  const now = Date.now();
  const info = db
    .prepare(
      `insert into notification_channels (name, kind, config, secrets, template, is_default, enabled, created_at, updated_at)
       values (?, 'webhook', ?, null, null, 0, 1, ?, ?)`,
    )
    .run('bench hook', JSON.stringify({ url, method: 'POST', headers: [] }), now, now);
  return Number(info.lastInsertRowid);
}

/** Every monitor alerts through the channel. */
export function linkAll(db, channelId) {
  db.prepare(
    `insert into monitor_channels (monitor_id, channel_id) select id, ? from monitors`,
  ).run(channelId);
}

export function unlinkAll(db) {
  db.prepare('delete from monitor_channels').run();
}

export function outboxCounts(db) {
  return Object.fromEntries(
    db
      .prepare('select state, count(*) as n from deliveries group by state')
      .all()
      .map((r) => [r.state, r.n]),
  );
}
