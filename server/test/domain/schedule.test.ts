import { describe, expect, it } from 'vitest';
import {
  dueOf,
  keyAfter,
  nextSlot,
  phaseOf,
  phaseOffset,
  resumeSlot,
  roundAt,
  roundPassedUnchecked,
  takeoverSlot,
  takeoverSpreadMs,
} from '../../src/domain/schedule.js';
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

  it('phases spread 1,000 monitors at 60 s over the whole interval', () => {
    const perTenth = new Array<number>(10).fill(0);
    for (let id = 1; id <= 1000; id++) perTenth[Math.floor(phaseOf(id, 60_000) / 6000)]! += 1;
    expect(Math.max(...perTenth)).toBeLessThanOrEqual(200);
    expect(Math.min(...perTenth)).toBeGreaterThanOrEqual(50);
  });

  it('a monitor whose current round has a result resumes at the next round after a restart', () => {
    const now = 1_000_000_000;
    const current = roundAt(7, 60_000, now);
    const slot = resumeSlot(7, 60_000, dueOf(7, 60_000, current), now);
    expect(slot).toEqual({ round: current + 1, due: dueOf(7, 60_000, current + 1) });
  });

  it('a current round without a result runs once, within its spread and before the next round', () => {
    const now = 5_000_000_000;
    for (let id = 1; id < 300; id++) {
      for (const last of [null, now - 3_600_000]) {
        const slot = resumeSlot(id, 60_000, last, now);
        const current = roundAt(id, 60_000, now);
        expect(slot.due).toBeGreaterThanOrEqual(now);
        expect(slot.due).toBeLessThan(now + 60_000);
        // Never an older round; the current one only while it lasts.
        if (slot.round === current) expect(slot.due).toBeLessThan(dueOf(id, 60_000, current + 1));
        else expect(slot).toEqual({ round: current + 1, due: dueOf(id, 60_000, current + 1) });
      }
    }
  });

  it('a last round in the future (clock moved back) waits for the next round', () => {
    const now = 1_000_000_000;
    expect(resumeSlot(1, 60_000, now + 600_000, now).round).toBe(roundAt(1, 60_000, now) + 1);
  });
});

describe('rounds', () => {
  it('are numbered from the epoch the same way everywhere, and a round is due where it starts', () => {
    for (const id of [1, 2, 99, 123_456]) {
      for (const interval of [20_000, 60_000, 300_000, 86_400_000]) {
        const r = roundAt(id, interval, Date.UTC(2026, 10, 25, 12));
        expect(roundAt(id, interval, dueOf(id, interval, r))).toBe(r);
        expect(roundAt(id, interval, dueOf(id, interval, r + 1) - 1)).toBe(r);
        expect(dueOf(id, interval, r + 1) - dueOf(id, interval, r)).toBe(interval);
        expect(dueOf(id, interval, 0)).toBe(phaseOf(id, interval));
      }
    }
  });

  it('follow the plan, not completion time, so checks do not drift', () => {
    const r = roundAt(5, 10_000, 100_000_000);
    const late = dueOf(5, 10_000, r) + 350;
    expect(nextSlot(5, 10_000, r, late)).toEqual({ round: r + 1, due: dueOf(5, 10_000, r + 1) });
  });

  it('resume at the current round after the machine fell behind, never a backlog', () => {
    const r = roundAt(5, 10_000, 100_000_000);
    const now = dueOf(5, 10_000, r) + 25_000;
    expect(nextSlot(5, 10_000, r, now).round).toBe(r + 2);
  });

  it('key results: attempt 0 for a round, counting up within it, never backwards', () => {
    const first = keyAfter(null, 3, 60_000, 10);
    expect(first).toEqual({ round: 10, roundDue: dueOf(3, 60_000, 10), attempt: 0 });
    expect(keyAfter(first, 3, 60_000, 10).attempt).toBe(1);
    expect(keyAfter(first, 3, 60_000, 11).attempt).toBe(0);
    // The interval was edited: the new numbering's round is due earlier than the last one.
    const edited = keyAfter({ roundDue: dueOf(3, 60_000, 10), attempt: 2 }, 3, 300_000, 1);
    expect(edited).toEqual({ round: 1, roundDue: dueOf(3, 60_000, 10), attempt: 3 });
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

describe('a takeover’s late checks', () => {
  it('run within a second when few are late, at the pace of the schedule when many are', () => {
    // A dead node's late monitors in a small fleet, or 900 among 30,000: within the second.
    expect(takeoverSpreadMs(30_000, 10, 40)).toBe(1_000);
    expect(takeoverSpreadMs(60_000, 900, 30_000)).toBe(1_000);
    // A machine's whole share at start, half of it late: 1,000 a second, 25 s.
    expect(takeoverSpreadMs(60_000, 25_000, 50_000)).toBe(25_000);
    // A process whose schedule runs 2,000 a second starts them at that pace.
    expect(takeoverSpreadMs(60_000, 30_000, 120_000)).toBe(15_000);
    // Never past the interval, never under a second.
    expect(takeoverSpreadMs(10_000, 50_000, 50_000)).toBe(10_000);
    expect(takeoverSpreadMs(10_000, 0, 0)).toBe(1_000);
  });

  it('spread a large takeover: 25,000 late monitors do not all start within a second', () => {
    const now = Date.UTC(2026, 10, 27, 6, 0, 30);
    const spread = takeoverSpreadMs(60_000, 25_000, 50_000);
    const dues: number[] = [];
    for (let id = 1; id <= 5_000; id++) {
      if (!roundPassedUnchecked(id, 60_000, null, now)) continue;
      const slot = takeoverSlot(id, 60_000, null, now, spread);
      if (slot.round === roundAt(id, 60_000, now)) dues.push(slot.due - now);
    }
    const withinASecond = dues.filter((d) => d < 1_000).length;
    expect(dues.length).toBeGreaterThan(1_000);
    expect(withinASecond / dues.length).toBeLessThan(0.1);
  });
});
