import { describe, expect, it } from 'vitest';
import { daysBefore, recentPeriods, today } from './range';

const at = Date.parse('2026-01-01T03:00:00Z');

describe('report ranges', () => {
  it('names months and quarters in the zone, across a new year', () => {
    // 03:00 UTC on 1 January is still 31 December in New York.
    expect(recentPeriods('month', 'UTC', at).slice(0, 3)).toEqual([
      '2026-01',
      '2025-12',
      '2025-11',
    ]);
    expect(recentPeriods('month', 'America/New_York', at).slice(0, 2)).toEqual([
      '2025-12',
      '2025-11',
    ]);
    expect(recentPeriods('month', 'UTC', at)).toHaveLength(13);
    expect(recentPeriods('quarter', 'UTC', at)).toEqual([
      '2026-Q1',
      '2025-Q4',
      '2025-Q3',
      '2025-Q2',
      '2025-Q1',
    ]);
  });

  it('gives today in the zone and counts days back', () => {
    expect(today('UTC', at)).toBe('2026-01-01');
    expect(today('America/New_York', at)).toBe('2025-12-31');
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });
});
