import { statsWindows } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  coarsestSpans,
  levelMs,
  rollupLevels,
  type RollupLevel,
  type Span,
} from '../../src/domain/rollup.js';
import { windowRange } from '../../src/domain/windows.js';
import { rng } from '../support/history.js';

/** The `level` bucket starts a set of spans stands for, in order, repeats kept. */
function expand(spans: readonly Span[], level: RollupLevel): number[] {
  const out: number[] = [];
  for (const s of spans) {
    const size = levelMs[s.level];
    for (let b = Math.ceil(s.from / size) * size; b <= s.to; b += size) {
      for (let f = b; f < b + size; f += levelMs[level]) out.push(f);
    }
  }
  return out;
}

function starts(level: RollupLevel, from: number, to: number): number[] {
  const size = levelMs[level];
  const out: number[] = [];
  for (let b = Math.ceil(from / size) * size; b <= to; b += size) out.push(b);
  return out;
}

describe('coarsest spans', () => {
  it.each(['minute', 'hour'] as const)('tile the %s buckets of any range exactly once', (level) => {
    const r = rng(level.length);
    // Ranges of up to ~200 buckets of the next grain, so every kind of edge shows up.
    const days = level === 'minute' ? 8 : 200;
    for (let i = 0; i < 300; i += 1) {
      const from = Date.UTC(2026, 0, 1) + Math.floor(r() * days * 86_400_000);
      const to = from + Math.floor(r() * r() * days * 86_400_000);
      const spans = coarsestSpans(level, from, to);
      expect(expand(spans, level), `${from}..${to}`).toEqual(starts(level, from, to));
    }
  });

  it('read a 24 h window of minutes as whole hours and a few edge minutes', () => {
    const { from, to, rollup } = windowRange('24h', Date.UTC(2026, 4, 3, 10, 7, 12));
    const spans = coarsestSpans(rollup, from, to);
    const rows = spans.reduce((n, s) => n + starts(s.level, s.from, s.to).length, 0);
    expect(spans.map((s) => s.level)).toEqual(['minute', 'hour', 'minute']);
    expect(rows).toBeLessThan(24 + 2 * 60);
  });

  it('read a 30 d window of hours mostly as days', () => {
    const { from, to, rollup } = windowRange('30d', Date.UTC(2026, 4, 3, 10, 7, 12));
    const spans = coarsestSpans(rollup, from, to);
    expect(spans.map((s) => s.level)).toEqual(['hour', 'day', 'hour']);
    expect(spans.reduce((n, s) => n + starts(s.level, s.from, s.to).length, 0)).toBeLessThan(80);
  });

  it('are empty for an empty range, and the range itself at the coarsest level', () => {
    expect(coarsestSpans('minute', 10, 9)).toEqual([]);
    expect(coarsestSpans('day', 0, 86_400_000)).toEqual([
      { level: 'day', from: 0, to: 86_400_000 },
    ]);
  });
});

describe('windows', () => {
  it('read each window from the coarsest rollup that tiles its chart buckets', () => {
    const now = Date.UTC(2026, 4, 3, 10, 7, 12);
    const levels = statsWindows.map((w) => windowRange(w, now).rollup);
    expect(levels).toEqual(['minute', 'minute', 'hour', 'hour', 'day']);
    for (const w of statsWindows) {
      const { from, bucketMs, rollup } = windowRange(w, now);
      expect(bucketMs % levelMs[rollup]).toBe(0);
      expect(from % levelMs[rollup]).toBe(0);
      expect(rollupLevels).toContain(rollup);
    }
  });
});
