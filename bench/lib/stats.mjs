// Figures: percentiles, Prometheus text, /proc samples, tables and JSON under bench/results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './run.mjs';

/** Nearest-rank percentile of unsorted numbers (p in 0..100). */
export function percentile(values, p) {
  if (values.length === 0) return null;
  return ranked(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** The nearest-rank value of p (0..100) in numbers sorted ascending. */
function ranked(sorted, p) {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Several percentiles of many numbers (an array or a typed array) with one sort: { p: value }. */
export function percentiles(values, ps) {
  const sorted = Float64Array.from(values).sort();
  return Object.fromEntries(ps.map((p) => [p, sorted.length ? ranked(sorted, p) : null]));
}

export function summarize(values) {
  if (values.length === 0) return { n: 0 };
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    min: values.reduce((a, b) => Math.min(a, b), Infinity),
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.reduce((a, b) => Math.max(a, b), -Infinity),
    mean: sum / values.length,
  };
}

/** Prometheus text exposition → [{ name, labels, value }]. */
export function parseProm(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    const raw = m[3];
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    samples.push({ name: m[1], labels, value });
  }
  return samples;
}

const matches = (labels, want) => Object.entries(want).every(([k, v]) => labels[k] === v);

export function metric(samples, name, labels = {}) {
  return samples.find((s) => s.name === name && matches(s.labels, labels))?.value;
}

export function sumMetric(samples, name) {
  return samples.filter((s) => s.name === name).reduce((a, s) => a + s.value, 0);
}

export function byLabel(samples, name, label) {
  return Object.fromEntries(
    samples.filter((s) => s.name === name).map((s) => [s.labels[label], s.value]),
  );
}

/** Cumulative histogram buckets [{ le, count }], ascending; `minus` subtracts an earlier scrape. */
export function buckets(samples, name, minus) {
  const before = minus ? buckets(minus, name) : [];
  return samples
    .filter((s) => s.name === `${name}_bucket`)
    .map((s) => {
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      const prev = before.find((b) => b.le === le)?.count ?? 0;
      return { le, count: s.value - prev };
    })
    .sort((a, b) => a.le - b.le);
}

/**
 * Quantile from cumulative buckets the way Prometheus' histogram_quantile does it (linear
 * inside the bucket), plus the bucket's upper bound, which is the honest claim ("≤ bound").
 */
export function histogramQuantile(bs, q) {
  const total = bs.at(-1)?.count ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const b of bs) {
    if (b.count >= rank) {
      if (b.le === Infinity) return { value: prevLe, bound: Infinity };
      const share = b.count === prevCount ? 1 : (rank - prevCount) / (b.count - prevCount);
      return { value: prevLe + (b.le - prevLe) * share, bound: b.le };
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return null;
}

/** Upper bound of the highest bucket that holds any observation. */
export function histogramMaxBound(bs) {
  let prevCount = 0;
  let bound = null;
  for (const b of bs) {
    if (b.count > prevCount) bound = b.le;
    prevCount = b.count;
  }
  return bound;
}

// ── /proc ──

export function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : null;
}

/** /proc/<pid>/stat's fields after the command name: [0] is the state, [1] the parent pid. */
function statFields(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU seconds of a process (Linux clock ticks are 100 Hz). */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Pids of a process's children (a scan of /proc: not every kernel has task/<tid>/children). */
export function childPids(pid) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === pid) found.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/** One variable of a process's environment (readable for our own processes), or undefined. */
export function envOf(pid, name) {
  try {
    const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return entries.find((e) => e.startsWith(`${name}=`))?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

export function environment() {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: `${os.type()} ${os.release()}`,
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

// ── output ──

// (v || 0) turns NaN and -0 into 0: a check may start up to 1 ms early, so medians sit near 0.
export const ms = (v, digits = 1) =>
  v == null ? '–' : `${(Number(v.toFixed(digits)) || 0).toFixed(digits)} ms`;
export const kb = (bytes) => (bytes == null ? '–' : `${(bytes / 1024).toFixed(1)} KiB`);
export const mb = (bytes) => (bytes == null ? '–' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
export const pct = (v, digits = 2) => (v == null ? '–' : `${v.toFixed(digits)} %`);
export const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** Prints rows (arrays of cells) as an aligned table; the first row is the header. */
export function printTable(title, rows) {
  const cells = rows.map((r) => r.map((c) => String(c ?? '–')));
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])));
  console.log(`\n${title}`);
  console.log(line(cells[0]).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r).join('  '));
}

export function printEnvironment(env = environment()) {
  console.log(
    `node ${env.node} · ${env.cpu} · ${env.cores} cores · ${env.memoryGiB} GiB · ${env.kernel} · load ${env.loadavg.join(' ')}`,
  );
  return env;
}

/** Writes bench/results/<name>.json (gitignored) with the environment alongside the figures. */
export function writeResult(name, figures, env = environment()) {
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const loadavgAtEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const data = { bench: name, environment: { ...env, loadavgAtEnd }, ...figures };
  // JSON has no Infinity; the +Inf histogram bucket is written the way Prometheus names it.
  const json = JSON.stringify(data, (_k, v) => (v === Infinity ? '+Inf' : v), 2);
  fs.writeFileSync(file, `${json}\n`);
  console.log(`\nload average at the end: ${loadavgAtEnd.join(' ')}`);
  console.log(`figures written to ${path.relative(root, file)}`);
}
