import { describe, expect, it } from 'vitest';
import {
  LatencySketch,
  RELATIVE_ACCURACY,
  mergeSketches,
} from '../../src/domain/latency-sketch.js';

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const QS = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];
// Floating-point rounding of the bucket edges may cost a hair more than α.
const BOUND = RELATIVE_ACCURACY * (1 + 1e-9);

function sketchOf(values: readonly number[]): LatencySketch {
  const s = new LatencySketch();
  for (const v of values) s.add(v);
  return s;
}

/** Nearest rank, with the rank computed from q as the sketch does (q·100/100 ≠ q in floats). */
function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] ?? NaN;
}

/** Every quantile of the sketch is within α of the exact nearest-rank percentile. */
function expectAccurate(values: readonly number[], sketch = sketchOf(values)): void {
  const sorted = [...values].sort((a, b) => a - b);
  for (const q of QS) {
    const exact = nearestRank(sorted, q);
    const got = sketch.quantile(q) ?? NaN;
    const err = exact === 0 ? Math.abs(got) : Math.abs(got - exact) / exact;
    expect(err, `q=${q} exact=${exact} got=${got}`).toBeLessThanOrEqual(BOUND);
  }
}

const generators: Record<string, (r: () => number, n: number) => number[]> = {
  uniform: (r, n) => Array.from({ length: n }, () => 1 + Math.floor(r() * 2_000_000)),
  'log-normal latencies': (r, n) =>
    Array.from({ length: n }, () => {
      const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
      return Math.max(1, Math.round(Math.exp(11 + 0.6 * z)));
    }),
  'bimodal: fast cache hits and timeouts': (r, n) =>
    Array.from({ length: n }, () => (r() < 0.97 ? 800 + Math.floor(r() * 400) : 10_000_000)),
  'every decade from 1 µs to 1,000 s': (r, n) =>
    Array.from({ length: n }, () => Math.round(10 ** (r() * 9))),
  'one value repeated': (_r, n) => Array.from({ length: n }, () => 123_456),
  'ascending powers of two': (_r, n) => Array.from({ length: n }, (_, i) => 2 ** (i % 30)),
  'values on bucket edges': (_r, n) =>
    Array.from({ length: n }, (_, i) =>
      Math.max(1, Math.round(((1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY)) ** (i % 900))),
    ),
  'with exact zeros': (r, n) => Array.from({ length: n }, () => (r() < 0.2 ? 0 : 1 + r() * 5000)),
};

describe('latency sketch', () => {
  describe.each(Object.entries(generators))('on %s', (_name, gen) => {
    it.each([1, 2, 3, 10, 101, 5000])('answers every quantile within α for %i values', (n) => {
      expectAccurate(gen(rng(n * 7919), n));
    });
  });

  it('answers nothing when empty', () => {
    const s = new LatencySketch();
    expect(s.count).toBe(0);
    expect(s.quantile(0.5)).toBeNull();
    expect(s.quantiles([0.5, 0.99])).toEqual([null, null]);
    expect(LatencySketch.deserialize(s.serialize()).count).toBe(0);
  });

  it('reads one value back within α at every quantile', () => {
    const s = sketchOf([250_000]);
    for (const q of QS) {
      const v = s.quantile(q) ?? 0;
      expect(Math.abs(v - 250_000) / 250_000).toBeLessThanOrEqual(BOUND);
    }
  });

  it('merges exactly: the merge of parts is the sketch of the whole', () => {
    const r = rng(42);
    const values = generators['log-normal latencies']!(r, 3000);
    const parts = [values.slice(0, 1000), values.slice(1000, 1001), values.slice(1001)];
    const [a, b, c] = parts.map(sketchOf) as [LatencySketch, LatencySketch, LatencySketch];
    const whole = sketchOf(values);
    expect(mergeSketches(mergeSketches(a, b), c).serialize()).toEqual(whole.serialize());
    expect(mergeSketches(a, mergeSketches(b, c)).serialize()).toEqual(whole.serialize());
    expect(mergeSketches(c, mergeSketches(a, b)).serialize()).toEqual(whole.serialize());
    expect(mergeSketches(a, new LatencySketch()).serialize()).toEqual(a.serialize());
    expectAccurate(values, mergeSketches(mergeSketches(a, b), c));
  });

  it('merges serialized sketches the same as objects', () => {
    const r = rng(7);
    const parts = Array.from({ length: 50 }, () =>
      generators.uniform!(r, 1 + Math.floor(r() * 40)),
    );
    const viaBytes = new LatencySketch();
    for (const p of parts) viaBytes.mergeBytes(sketchOf(p).serialize());
    const direct = sketchOf(parts.flat());
    expect(viaBytes.serialize()).toEqual(direct.serialize());
    expect(viaBytes.count).toBe(parts.flat().length);
    expectAccurate(parts.flat(), viaBytes);
  });

  it('round-trips through its binary form, compactly', () => {
    const values = generators['every decade from 1 µs to 1,000 s']!(rng(3), 10_000);
    const s = sketchOf(values);
    const bytes = s.serialize();
    const back = LatencySketch.deserialize(bytes);
    expect(back.count).toBe(10_000);
    expect(back.quantiles(QS)).toEqual(s.quantiles(QS));
    // Bounded by the fixed index range (~1,040 buckets), whatever the input.
    expect(bytes.length).toBeLessThan(1040 * 3 + 8);
    expect(sketchOf([120_000]).serialize().length).toBeLessThanOrEqual(5);
  });

  it('keeps counts above 2^31 exact', () => {
    const s = new LatencySketch().add(1000, 3_000_000_000).add(0, 5_000_000_000);
    const back = LatencySketch.deserialize(s.serialize());
    expect(back.count).toBe(8_000_000_000);
    expect(back.quantile(0.5)).toBe(0);
    expect(Math.abs((back.quantile(0.9) ?? 0) - 1000) / 1000).toBeLessThanOrEqual(BOUND);
  });

  it('clamps values beyond its range instead of growing', () => {
    const s = sketchOf([1e12, 5e9, 1e9]);
    expect(LatencySketch.deserialize(s.serialize()).count).toBe(3);
    expect(s.serialize().length).toBeLessThanOrEqual(5);
  });

  it('refuses bytes it did not write', () => {
    expect(() => LatencySketch.deserialize(new Uint8Array([9, 0]))).toThrow(/format/);
    expect(() => LatencySketch.deserialize(new Uint8Array([1, 0, 5]))).toThrow(/Truncated/);
    expect(() => LatencySketch.deserialize(new Uint8Array([1, 0, 0xff, 0x7f, 1]))).toThrow(
      /out of range/,
    );
  });
});
