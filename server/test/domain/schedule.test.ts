import { describe, expect, it } from 'vitest';
import { firstDue, nextDue, phaseOffset } from '../../src/domain/schedule.js';
import { percentile, uptimePercent } from '../../src/domain/percentiles.js';
import { windowRange } from '../../src/domain/windows.js';
import { MinHeap } from '../../src/lib/min-heap.js';

describe('spreading first runs', () => {
  it('1,000 monitors at 10 s are spread over the whole interval, no second holding more than 2x its share', () => {
    const perSecond = new Array<number>(10).fill(0);
    for (let id = 1; id <= 1000; id++) perSecond[Math.floor(phaseOffset(id, 10_000) / 1000)]! += 1;
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(200);
    expect(Math.min(...perSecond)).toBeGreaterThanOrEqual(50);
  });

  it('offsets stay within the interval and under a minute for long intervals', () => {
    for (let id = 1; id < 500; id++) {
      expect(phaseOffset(id, 10_000)).toBeLessThan(10_000);
      expect(phaseOffset(id, 86_400_000)).toBeLessThan(60_000);
    }
  });

  it('a monitor checked recently waits out its interval after a restart', () => {
    expect(firstDue(7, 60_000, 1_000_000 - 20_000, 1_000_000)).toBe(1_040_000);
  });

  it('an overdue or never-checked monitor runs within its spread from now', () => {
    const now = 5_000_000;
    for (const last of [null, now - 3_600_000]) {
      const due = firstDue(42, 60_000, last, now);
      expect(due).toBeGreaterThanOrEqual(now);
      expect(due).toBeLessThan(now + 60_000);
    }
  });

  it('a last check stamped in the future (clock moved back) is capped at one interval', () => {
    expect(firstDue(1, 60_000, 10_000_000, 1_000_000)).toBe(1_060_000);
  });
});

describe('next due time', () => {
  it('follows the plan, not completion time, so checks do not drift', () => {
    expect(nextDue(100_000, 10_000, 100_350)).toBe(110_000);
  });
  it('resumes from now after the machine fell behind, without a burst', () => {
    expect(nextDue(100_000, 10_000, 125_000)).toBe(125_000);
  });
});

describe('min-heap', () => {
  it('pops in key order whatever the insertion order', () => {
    const heap = new MinHeap<number>((n) => n);
    const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    values.forEach((v) => heap.push(v));
    const out: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
    expect(out).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('uptime and percentiles', () => {
  it('counts degraded as delivered', () => {
    expect(uptimePercent(90, 5, 100)).toBe(95);
    expect(uptimePercent(0, 0, 0)).toBeNull();
  });
  it('uses the nearest-rank percentile', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile([], 50)).toBeNull();
    expect(percentile([4], 99)).toBe(4);
  });
});

describe('stats windows', () => {
  it('align their start to a bucket and end now', () => {
    const now = Date.UTC(2026, 10, 21, 12, 7, 30);
    const r = windowRange('24h', now);
    expect(r.to).toBe(now);
    expect(r.from % r.bucketMs).toBe(0);
    expect(now - r.from).toBeLessThanOrEqual(86_400_000);
    expect(now - r.from).toBeGreaterThan(86_400_000 - r.bucketMs);
  });
});
