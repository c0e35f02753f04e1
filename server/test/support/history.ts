import type { CheckOutcome } from '@pagewatch/contract';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import type { CheckRun } from '../../src/domain/check-run.js';
import { phaseNames, type PhaseName } from '../../src/domain/rollup.js';

/** Deterministic PRNG (mulberry32): random histories that replay the same on failure. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A check as generated: what brute force computes from (latencies in integer µs). */
export interface GenCheck {
  monitorId: number;
  at: number;
  outcome: CheckOutcome;
  latencyUs: number | null;
  phasesUs: Record<PhaseName, number | null>;
}

/** A plausible check: mostly up, some degraded and down, phases sometimes missing. */
export function randomCheck(r: () => number, monitorId: number, at: number): GenCheck {
  const roll = r();
  const outcome: CheckOutcome = roll < 0.8 ? 'up' : roll < 0.9 ? 'degraded' : 'down';
  // Log-uniform from 50 µs to 20 s, so buckets see every order of magnitude.
  const us = () => Math.round(50 * Math.exp(r() * Math.log(400_000)));
  const phasesUs = {} as GenCheck['phasesUs'];
  for (const p of phaseNames) phasesUs[p] = r() < 0.25 ? null : us();
  const latencyUs = outcome === 'down' && r() < 0.7 ? null : r() < 0.03 ? null : us();
  return { monitorId, at, outcome, latencyUs, phasesUs };
}

const ms = (us: number | null) => (us === null ? null : us / 1000);

export function toWrite(c: GenCheck): ResultWrite {
  const run: CheckRun = {
    outcome: c.outcome,
    latencyMs: ms(c.latencyUs),
    phases: {
      dns: ms(c.phasesUs.dns),
      connect: ms(c.phasesUs.connect),
      tls: ms(c.phasesUs.tls),
      ttfb: ms(c.phasesUs.ttfb),
      download: ms(c.phasesUs.download),
    },
    httpStatus: c.outcome === 'down' ? null : 200,
    errorCode: c.outcome === 'down' ? 'timeout' : null,
    errorMessage: c.outcome === 'down' ? 'Timed out' : null,
    responseSize: null,
    certExpiresAt: null,
  };
  return {
    monitorId: c.monitorId,
    at: c.at,
    run,
    status: c.outcome,
    failures: 0,
    recent: [[c.outcome, run.latencyMs]],
    flip: null,
  };
}

/** Fisher–Yates with the seeded PRNG. */
export function shuffle<T>(r: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(r() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Splits into batches of 1..max items. */
export function batches<T>(r: () => number, items: readonly T[], max: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length;) {
    const n = 1 + Math.floor(r() * max);
    out.push(items.slice(i, i + n));
    i += n;
  }
  return out;
}

// ── brute force: the naive computation rollups must agree with ──

export interface BruteFigures {
  checks: number;
  up: number;
  degraded: number;
  down: number;
  /** Latencies of delivered checks, ascending, µs. */
  latencies: number[];
  phases: Record<PhaseName, number[]>;
}

export function bruteFigures(checks: readonly GenCheck[]): BruteFigures {
  const delivered = checks.filter((c) => c.outcome !== 'down');
  const phases = {} as BruteFigures['phases'];
  for (const p of phaseNames) {
    phases[p] = delivered.flatMap((c) => (c.phasesUs[p] === null ? [] : [c.phasesUs[p]]));
  }
  return {
    checks: checks.length,
    up: checks.filter((c) => c.outcome === 'up').length,
    degraded: checks.filter((c) => c.outcome === 'degraded').length,
    down: checks.filter((c) => c.outcome === 'down').length,
    latencies: delivered
      .flatMap((c) => (c.latencyUs === null ? [] : [c.latencyUs]))
      .sort((a, b) => a - b),
    phases,
  };
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Nearest-rank percentile (p in 0..100) of ascending values. */
export function exactPercentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** Groups checks by `Math.floor(at / size) * size`. */
export function groupBy(checks: readonly GenCheck[], size: number): Map<number, GenCheck[]> {
  const out = new Map<number, GenCheck[]>();
  for (const c of checks) {
    const t = Math.floor(c.at / size) * size;
    const list = out.get(t) ?? [];
    list.push(c);
    out.set(t, list);
  }
  return out;
}

export interface Span {
  start: number;
  end: number;
}

/**
 * A check every 10 minutes from `from` to `to`: down inside the outages, degraded now and
 * then, with a latency the caller chooses per check (down checks have none).
 */
export function tenMinuteHistory(options: {
  monitorId: number;
  from: number;
  to: number;
  outages: readonly Span[];
  latencyUs: (i: number) => number;
}): GenCheck[] {
  const out: GenCheck[] = [];
  let i = 0;
  for (let t = options.from; t <= options.to; t += 600_000, i++) {
    const down = options.outages.some((o) => t >= o.start && t < o.end);
    out.push({
      monitorId: options.monitorId,
      at: t,
      outcome: down ? 'down' : i % 97 === 0 ? 'degraded' : 'up',
      latencyUs: down ? null : options.latencyUs(i),
      phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
    });
  }
  return out;
}

/**
 * The checks written as the engine writes them: a flip at each change, so outages open and
 * resolve automatic incidents, and checks inside the maintenance span marked as in maintenance.
 */
export async function writeAsTheEngine(
  results: { writeBatch(writes: ResultWrite[]): Promise<unknown> },
  checks: readonly GenCheck[],
  maintenance: Span,
): Promise<void> {
  let status = 'up';
  const writes = checks.map((c) => {
    const w = toWrite(c);
    const to = c.outcome === 'down' ? 'down' : 'up';
    const flip = to === status ? null : { from: status, to };
    status = to;
    const inMaintenance = c.at >= maintenance.start && c.at < maintenance.end;
    return { ...w, status: to, flip, maintenance: inMaintenance } as typeof w;
  });
  for (let i = 0; i < writes.length; i += 500) await results.writeBatch(writes.slice(i, i + 500));
}
