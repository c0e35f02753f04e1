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
  /**
   * Bucket counts for indexes offset … offset + bins.length - 1, dense: merging thousands of
   * stored sketches (a year's report) adds into an array instead of a map. It grows to the
   * range in use, typically under a hundred buckets.
   */
  private bins = new Float64Array(0);
  private offset = 0;
  private zeros = 0;
  private total = 0;

  /** Number of values added or merged in. */
  get count(): number {
    return this.total;
  }

  /** Makes room for indexes lo … hi. */
  private cover(lo: number, hi: number): void {
    const len = this.bins.length;
    if (len > 0 && lo >= this.offset && hi < this.offset + len) return;
    // Headroom on the side that grows, so a sketch filled bucket by bucket copies rarely.
    const pad = Math.max(16, len >> 1);
    const from = Math.max(0, len === 0 || lo < this.offset ? lo - pad : this.offset);
    const end = this.offset + len - 1;
    const to = Math.min(MAX_INDEX, len === 0 || hi > end ? hi + pad : end);
    const next = new Float64Array(to - from + 1);
    if (len > 0) next.set(this.bins, this.offset - from);
    this.bins = next;
    this.offset = from;
  }

  private bump(index: number, n: number): void {
    this.cover(index, index);
    this.bins[index - this.offset]! += n;
  }

  /** Adds a latency in microseconds, `times` times. */
  add(value: number, times = 1): this {
    if (!(times > 0)) return this;
    this.total += times;
    if (!(value >= 1)) {
      this.zeros += times;
      return this;
    }
    this.bump(indexOf(value), times);
    return this;
  }

  /** Adds every value of `other` to this sketch. */
  merge(other: LatencySketch): this {
    this.zeros += other.zeros;
    this.total += other.total;
    const len = other.bins.length;
    if (len === 0) return this;
    this.cover(other.offset, other.offset + len - 1);
    const shift = other.offset - this.offset;
    for (let i = 0; i < len; i += 1) this.bins[i + shift]! += other.bins[i]!;
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
      this.bump(index, n);
      this.total += n;
    }
    return this;
  }

  /** The buckets in use, ascending: [index, count]. */
  private *used(): Generator<[number, number]> {
    for (let i = 0; i < this.bins.length; i += 1) {
      const n = this.bins[i]!;
      if (n > 0) yield [i + this.offset, n];
    }
  }

  /** Nearest-rank quantile (q in 0..1) within the relative accuracy; null when empty. */
  quantile(q: number): number | null {
    return this.quantiles([q])[0] ?? null;
  }

  /** Several quantiles with one sort of the buckets. */
  quantiles(qs: readonly number[]): (number | null)[] {
    if (this.total === 0) return qs.map(() => null);
    const used = [...this.used()];
    return qs.map((q) => {
      const rank = Math.min(this.total, Math.max(1, Math.ceil(q * this.total)));
      if (rank <= this.zeros) return 0;
      let seen = this.zeros;
      for (const [k, n] of used) {
        seen += n;
        if (seen >= rank) return valueOf(k);
      }
      return valueOf(used.at(-1)?.[0] ?? 0);
    });
  }

  /**
   * Compact binary form: a version byte, the zero count, then (index delta, count) pairs in
   * ascending index order, all as unsigned LEB128 varints: about 2 bytes per bucket in use.
   */
  serialize(): Uint8Array {
    const used = [...this.used()];
    const w = new Writer(2 + used.length * 4);
    w.byte(FORMAT_VERSION);
    w.varint(this.zeros);
    let prev = 0;
    for (const [k, n] of used) {
      w.varint(k - prev);
      w.varint(n);
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
