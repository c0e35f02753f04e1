// What the target saw: an account of the checks that is independent of the server's metrics.
import { percentile } from './stats.mjs';

/**
 * From the target's arrival times per path (one path per monitor): requests received in
 * [fromMs, toMs), monitors whose checks left a gap over 1.5 intervals, peak requests per
 * second, and jitter: each arrival's offset from its monitor's grid (first arrival + k ×
 * interval) minus the monitor's smallest offset, i.e. how much later than that monitor's
 * most punctual check it arrived. A lower bound on lateness that needs no server clock.
 */
export function arrivalFigures(arrivals, fromMs, toMs, intervalMs) {
  let received = 0;
  let monitorsWithGap = 0;
  const jitter = [];
  const perSecond = new Map();
  for (const times of Object.values(arrivals)) {
    const inWindow = times.filter((t) => t >= fromMs && t < toMs);
    received += inWindow.length;
    for (const t of inWindow) {
      const s = Math.floor(t / 1000);
      perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
    }
    const around = times.filter((t) => t >= fromMs - intervalMs && t < toMs + intervalMs);
    if (around.some((t, i) => i > 0 && t - around[i - 1] > 1.5 * intervalMs)) {
      monitorsWithGap += 1;
    }
    if (inWindow.length === 0) continue;
    const offsets = inWindow.map((t) => {
      const k = Math.round((t - inWindow[0]) / intervalMs);
      return t - inWindow[0] - k * intervalMs;
    });
    const least = Math.min(...offsets);
    for (const o of offsets) jitter.push(o - least);
  }
  return {
    monitors: Object.keys(arrivals).length,
    received,
    monitorsWithGap,
    peakPerSecond: Math.max(0, ...perSecond.values()),
    jitter: {
      p50: percentile(jitter, 50),
      p99: percentile(jitter, 99),
      // A reduce, not Math.max(...): 80,000 monitors give more arguments than the stack holds.
      max: jitter.length ? jitter.reduce((a, b) => Math.max(a, b), -Infinity) : null,
    },
  };
}

/**
 * The instant of the interval (ms mod intervalMs) with the fewest arrivals around it. Counters
 * read there are not smeared across a burst of checks, so a window between two such instants
 * holds exactly one due time per monitor per interval.
 */
export function quietPhase(arrivals, intervalMs, binMs = 100) {
  const bins = new Array(Math.ceil(intervalMs / binMs)).fill(0);
  for (const times of Object.values(arrivals)) {
    for (const t of times) bins[Math.floor((t % intervalMs) / binMs)] += 1;
  }
  const reach = Math.round(500 / binMs);
  let best = 0;
  let bestCount = Infinity;
  for (let i = 0; i < bins.length; i += 1) {
    let count = 0;
    for (let d = -reach; d <= reach; d += 1) count += bins[(i + d + bins.length) % bins.length];
    if (count < bestCount) [best, bestCount] = [i, count];
  }
  return { phaseMs: best * binMs + binMs / 2, nearbyArrivals: bestCount };
}

/** The first instant at or after `notBefore` whose position in the interval is `phaseMs`. */
export function nextAtPhase(phaseMs, intervalMs, notBefore) {
  let t = notBefore - (notBefore % intervalMs) + phaseMs;
  while (t < notBefore) t += intervalMs;
  return t;
}

/** Checks each of `monitors` monitors' paths received in the window, against `due` apiece. */
export function perMonitor(arrivals, monitors, fromMs, toMs, due) {
  const silent = monitors - Object.keys(arrivals).length;
  let short = silent;
  let missing = silent * due;
  let extra = 0;
  for (const times of Object.values(arrivals)) {
    const n = times.filter((t) => t >= fromMs && t < toMs).length;
    if (n < due) [short, missing] = [short + 1, missing + due - n];
    if (n > due) extra += n - due;
  }
  return { monitorsShort: short, missing, extra };
}
