/**
 * A mergeable latency histogram in the manner of DDSketch (Masson et al., VLDB 2019).
 *
 * Buckets are logarithmic: bucket i holds values in (γ^(i-1), γ^i] with γ = (1+α)/(1-α), and
 * reads back as 2γ^i/(γ+1). Any quantile it answers is therefore within α (relative) of the
 * true nearest-rank value, and merging two sketches adds bucket counts, which is exact:
 * merges are associative and commutative, so rollups can be combined in any order.
 *
 * Values are latencies in integer microseconds. The accuracy bound holds for 1 µs – 1,000 s;
 * values below 1 µs read back as 0, values above 1,000 s share the top bucket. The index
 * range is fixed, so a sketch never holds more than ~1,040 buckets whatever it is fed.
 */
export const RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LN_GAMMA = Math.log(GAMMA);
/** Largest value kept apart: checks time out long before 1,000 s. */
const MAX_VALUE = 1e9;
const MAX_INDEX = Math.ceil(Math.log(MAX_VALUE) / LN_GAMMA);
const FORMAT_VERSION = 1;

/** Bucket of a value ≥ 1; the zero bucket is kept as a separate count. */
function indexOf(value: number): number {
  if (value >= MAX_VALUE) return MAX_INDEX;
  return Math.max(0, Math.ceil(Math.log(value) / LN_GAMMA));
}

/** The value a bucket reads back as: equidistant, relatively, from both of its edges. */
function valueOf(index: number): number {
  return (2 * Math.pow(GAMMA, index)) / (GAMMA + 1);
}

export class LatencySketch {
  private readonly bins = new Map<number, number>();
  private zeros = 0;
  private total = 0;

  /** Number of values added or merged in. */
  get count(): number {
    return this.total;
  }

  /** Adds a latency in microseconds, `times` times. */
  add(value: number, times = 1): this {
    if (!(times > 0)) return this;
    this.total += times;
    if (!(value >= 1)) {
      this.zeros += times;
      return this;
    }
    const i = indexOf(value);
    this.bins.set(i, (this.bins.get(i) ?? 0) + times);
    return this;
  }

  /** Adds every value of `other` to this sketch. */
  merge(other: LatencySketch): this {
    this.zeros += other.zeros;
    this.total += other.total;
    for (const [i, n] of other.bins) this.bins.set(i, (this.bins.get(i) ?? 0) + n);
    return this;
  }

  /** Merges a serialized sketch without building an intermediate object (rollup reads). */
  mergeBytes(bytes: Uint8Array): this {
    const r = new Reader(bytes);
    if (r.byte() !== FORMAT_VERSION) throw new Error('Unknown latency sketch format');
    const zeros = r.varint();
    this.zeros += zeros;
    this.total += zeros;
    let index = 0;
    while (!r.done()) {
      index += r.varint();
      const n = r.varint();
      if (index > MAX_INDEX) throw new Error('Corrupt latency sketch: bucket out of range');
      this.bins.set(index, (this.bins.get(index) ?? 0) + n);
      this.total += n;
    }
    return this;
  }

  /** Nearest-rank quantile (q in 0..1) within the relative accuracy; null when empty. */
  quantile(q: number): number | null {
    return this.quantiles([q])[0] ?? null;
  }

  /** Several quantiles with one sort of the buckets. */
  quantiles(qs: readonly number[]): (number | null)[] {
    if (this.total === 0) return qs.map(() => null);
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    return qs.map((q) => {
      const rank = Math.min(this.total, Math.max(1, Math.ceil(q * this.total)));
      if (rank <= this.zeros) return 0;
      let seen = this.zeros;
      for (const k of keys) {
        seen += this.bins.get(k) ?? 0;
        if (seen >= rank) return valueOf(k);
      }
      return valueOf(keys.at(-1) ?? 0);
    });
  }

  /**
   * Compact binary form: a version byte, the zero count, then (index delta, count) pairs in
   * ascending index order, all as unsigned LEB128 varints: about 2 bytes per bucket in use.
   */
  serialize(): Uint8Array {
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    const w = new Writer(2 + keys.length * 4);
    w.byte(FORMAT_VERSION);
    w.varint(this.zeros);
    let prev = 0;
    for (const k of keys) {
      w.varint(k - prev);
      w.varint(this.bins.get(k) ?? 0);
      prev = k;
    }
    return w.bytes();
  }

  static deserialize(bytes: Uint8Array): LatencySketch {
    return new LatencySketch().mergeBytes(bytes);
  }
}

/** A new sketch holding the values of both. */
export function mergeSketches(a: LatencySketch, b: LatencySketch): LatencySketch {
  return new LatencySketch().merge(a).merge(b);
}

class Writer {
  private buf: Uint8Array;
  private at = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(size, 8));
  }
  byte(b: number): void {
    if (this.at >= this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.at++] = b;
  }
  // Division rather than bit shifts: counts may exceed 2^31.
  varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.byte(v);
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Uint8Array) {}
  done(): boolean {
    return this.at >= this.buf.length;
  }
  byte(): number {
    if (this.at >= this.buf.length) throw new Error('Truncated latency sketch');
    return this.buf[this.at++] ?? 0;
  }
  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 49) throw new Error('Corrupt latency sketch: varint too long');
    }
  }
}
