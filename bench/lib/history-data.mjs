// Writes a long check history straight into a Pagewatch SQLite file: what retention leaves
// after a year at a 60 s interval (raw results for 30 days, minute rollups for 90, hour and
// day rollups for the whole year, plus the 10 minutes that expired since its last pass). Rollups are folded and encoded by the server's own code
// (server/dist), so they are exactly what writeBatch would have stored.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { root } from './run.mjs';

const dist = (p) => import(pathToFileURL(path.join(root, 'server/dist', p)).href);
const { emptyFigures, foldChecks, mergeFigures, keepsSketch, levelMs } =
  await dist('domain/rollup.js');
const { LatencySketch } = await dist('domain/latency-sketch.js');
const { rollupRow } = await dist('db/repositories/rollups.js');
const { defaultRetentionOptions } = await dist('jobs/retention.js');

const MIN = 60_000;
const HOUR = levelMs.hour;
const DAY = levelMs.day;
const OUTCOME = { up: 0, degraded: 1, down: 2 };

/** mulberry32: fast and seeded, so two runs write the same history. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
const normal = (r) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/** A monitor's character: its usual latency, whether it resolves a name and speaks TLS. */
function profile(r, i) {
  return {
    medianUs: Math.min(3e6, Math.max(5e3, Math.exp(Math.log(80e3) + 0.8 * normal(r)))),
    dns: r() < 0.9,
    tls: r() < 0.85,
    size: 2000 + Math.floor(r() * 60_000),
    certExpiresAt: Date.UTC(2027, 0, 1) + i * 3_600_000,
    outage: 0,
  };
}

/** One check: mostly up with log-normal jitter, now and then slow, sometimes an outage. */
function check(r, p, monitorId, at) {
  if (p.outage === 0 && r() < 1 / (3 * 1440)) p.outage = 1 + Math.floor(r() * 30);
  if (p.outage > 0) {
    p.outage -= 1;
    const timedOut = r() < 0.5;
    return {
      monitorId,
      at,
      outcome: 'down',
      latencyUs: timedOut ? 10_000_000 : null,
      phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
      httpStatus: timedOut ? null : 503,
      errorCode: timedOut ? 'timeout' : 'http_status',
    };
  }
  const spike = r() < 0.01 ? 3 + r() * 7 : 1;
  const us = Math.round(p.medianUs * Math.exp(0.25 * normal(r)) * spike);
  const dns = p.dns ? Math.round(us * 0.02) : null;
  const connect = Math.round(us * 0.1);
  const tls = p.tls ? Math.round(us * 0.15) : null;
  const rest = us - (dns ?? 0) - connect - (tls ?? 0);
  const ttfb = Math.round(rest * 0.8);
  return {
    monitorId,
    at,
    outcome: us > p.medianUs * 4 ? 'degraded' : 'up',
    latencyUs: us,
    phasesUs: { dns, connect, tls, ttfb, download: rest - ttfb },
    httpStatus: 200,
    errorCode: null,
  };
}

const ROLLUP_COLUMNS = [
  'monitor_id',
  'bucket',
  'checks',
  'up',
  'degraded',
  'down',
  'latency_sum_us',
  'latency_count',
  'latency_min_us',
  'latency_max_us',
  'latency_sketch',
  ...['dns', 'connect', 'tls', 'ttfb', 'download'].flatMap((p) => [`${p}_sum_us`, `${p}_count`]),
];

function statements(db) {
  // Positional parameters: better-sqlite3 binds them faster than named ones.
  const rollupInsert = (table) =>
    db.prepare(
      `insert into ${table} (${ROLLUP_COLUMNS.join(', ')}) values (${ROLLUP_COLUMNS.map(() => '?').join(', ')})`,
    );
  return {
    raw: db.prepare(
      `insert into check_results (monitor_id, at, outcome, latency_us, dns_us, connect_us, tls_us,
        ttfb_us, download_us, http_status, error_code, error_message, response_size, cert_expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    minute: rollupInsert('rollup_minute'),
    hour: rollupInsert('rollup_hour'),
    day: rollupInsert('rollup_day'),
    monitor: db.prepare(
      `update monitors set status = ?, failures = 0, status_changed_at = ?, last_check_at = ?,
        last_outcome = ?, last_latency_us = ?, last_http_status = ?, last_error_code = ?,
        last_error_message = ?, recent = ? where id = ?`,
    ),
  };
}

/** The server's row for a delta, as positional values. */
function rowOf(delta) {
  const row = rollupRow(delta, keepsSketch(delta.latencyCount) ? delta.sketch.serialize() : null);
  return ROLLUP_COLUMNS.map((c) => row[c]);
}

/** One raw result row, as the server stores it. */
function insertRaw(st, p, c) {
  const down = c.outcome === 'down';
  st.raw.run(
    c.monitorId,
    c.at,
    OUTCOME[c.outcome],
    c.latencyUs,
    c.phasesUs.dns,
    c.phasesUs.connect,
    c.phasesUs.tls,
    c.phasesUs.ttfb,
    c.phasesUs.download,
    c.httpStatus,
    c.errorCode,
    down ? (c.errorCode === 'timeout' ? 'Timed out after 10 s' : 'HTTP 503') : null,
    down ? null : p.size,
    p.tls ? p.certExpiresAt : null,
  );
}

/** The monitor's state after its last checks (status, last check, sparkline). */
function updateMonitor(st, id, from, last) {
  const c = last.at(-1);
  st.monitor.run(
    c.outcome,
    from,
    c.at,
    OUTCOME[c.outcome],
    c.latencyUs,
    c.httpStatus,
    c.errorCode,
    null,
    JSON.stringify(last.map((x) => [OUTCOME[x.outcome], x.latencyUs])),
    id,
  );
}

/** Writes one monitor's history an hour at a time, adding to `counts`. */
function writeMonitor(st, { id, index, from, now, r, counts }) {
  const p = profile(r, index);
  // Monitors check at different seconds of the minute, as the scheduler spreads them.
  const offset = Math.floor((index * MIN) / 1000) % MIN;
  // Retention runs every 10 minutes, so up to 10 minutes of expired rows are normally present.
  const { policy, everyMs } = defaultRetentionOptions;
  const rawFrom = now - policy.rawMs - everyMs;
  const minuteFrom = now - policy.minuteMs - everyMs;
  let day = null;
  let last = [];
  for (let hour = from; hour <= now; hour += HOUR) {
    const checks = [];
    for (let at = hour + offset; at < hour + HOUR && at <= now; at += MIN) {
      checks.push(check(r, p, id, at));
    }
    if (checks.length === 0) continue;
    for (const c of checks) {
      if (c.at < rawFrom) continue;
      insertRaw(st, p, c);
      counts.raw += 1;
    }
    if (hour + HOUR > minuteFrom) {
      for (const d of foldChecks('minute', checks)) {
        if (d.bucket < minuteFrom) continue;
        st.minute.run(rowOf(d));
        counts.minute += 1;
      }
    }
    const [h] = foldChecks('hour', checks);
    st.hour.run(rowOf(h));
    counts.hour += 1;
    // Days are merged from hours, as merging is exact.
    const dayStart = Math.floor(hour / DAY) * DAY;
    if (day && day.bucket !== dayStart) {
      st.day.run(rowOf(day));
      counts.day += 1;
      day = null;
    }
    day ??= { monitorId: id, bucket: dayStart, sketch: new LatencySketch(), ...emptyFigures() };
    mergeFigures(day, h);
    day.sketch.merge(h.sketch);
    last = [...last, ...checks].slice(-30);
  }
  if (day) {
    st.day.run(rowOf(day));
    counts.day += 1;
  }
  updateMonitor(st, id, from, last);
}

/**
 * Fills `file` (a migrated Pagewatch database whose monitors exist) with `days` of history
 * ending at `now` for every monitor. Returns row counts per kind.
 */
export function generateHistory(file, { now, days = 365, seed = 1, onProgress = () => {} }) {
  const db = new Database(file);
  // Bulk load: no journal, no fsync; the server switches back to WAL when it opens the file.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -512000');
  const st = statements(db);
  const ids = db.prepare('select id from monitors order by id').pluck().all();
  const from = Math.floor((now - days * DAY) / HOUR) * HOUR;
  const counts = { raw: 0, minute: 0, hour: 0, day: 0 };
  const r = rng(seed);
  const one = db.transaction((id, index) => writeMonitor(st, { id, index, from, now, r, counts }));
  ids.forEach((id, index) => {
    one(id, index);
    onProgress(index + 1, ids.length, counts);
  });
  db.pragma('journal_mode = WAL');
  db.close();
  return { monitors: ids.length, ...counts };
}
