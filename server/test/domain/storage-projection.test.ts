import { settingsDefaults } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { projectStorage, type ProjectionInput } from '../../src/domain/storage-projection.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 12);
const bytes = { raw: 100, minute: 50, hour: 200, day: 400 };
const none = { raw: null, minute: null, hour: null, day: null };

const input = (over: Partial<ProjectionInput> = {}): ProjectionInput => ({
  now: NOW,
  intervals: [{ intervalS: 60, monitors: 10_000 }],
  retention: settingsDefaults.retention,
  reach: none,
  rowBytes: bytes,
  databaseBytes: 1_000_000,
  freeDiskBytes: null,
  ...over,
});

describe('storage projection', () => {
  it('sizes each grain at its full keep from the checks the intervals ask for', () => {
    const p = projectStorage(input());
    expect(p.activeMonitors).toBe(10_000);
    expect(p.checksPerMinute).toBe(10_000);
    expect(p.projection.rawBytes).toBe(10_000 * 1_440 * 30 * 100);
    expect(p.projection.minuteBytes).toBe(10_000 * 1_440 * 90 * 50);
    expect(p.projection.hourBytes).toBe(10_000 * 24 * 730 * 200);
    // Kept forever: counted to the hour rollups' keep, and what a year adds besides.
    expect(p.projection.dayBytes).toBe(10_000 * 730 * 400);
    expect(p.projection.dayBytesPerYear).toBe(10_000 * 365 * 400);
    const history =
      Object.values(p.projection).reduce((a, b) => a + b, 0) - p.projection.dayBytesPerYear;
    expect(p.projectedBytes).toBe(1_000_000 + history);
  });

  it('counts a bucket once per monitor: slow monitors make fewer rollup rows than checks', () => {
    const p = projectStorage(
      input({
        intervals: [
          { intervalS: 7_200, monitors: 1 },
          { intervalS: 30, monitors: 1 },
        ],
      }),
    );
    expect(p.checksPerMinute).toBeCloseTo(1 / 120 + 2, 12);
    // Every 2 h: 12 raw rows, 12 minute rows and 12 hour rows a day; every 30 s: 2,880 raw rows
    // but still one row a minute and an hour.
    expect(p.projection.rawBytes).toBe((12 + 2_880) * 30 * 100);
    expect(p.projection.minuteBytes).toBe((12 + 1_440) * 90 * 50);
    expect(p.projection.hourBytes).toBe((12 + 24) * 730 * 200);
  });

  it('counts only the growth still to come from what is held now', () => {
    const held = projectStorage(
      input({
        reach: {
          raw: NOW - 40 * DAY,
          minute: NOW - 45 * DAY,
          hour: NOW - 730 * DAY,
          day: NOW - 900 * DAY,
        },
      }),
    );
    // Raw and hour are full; minutes have half of their 90 days to go; days are past the horizon.
    expect(held.projectedBytes).toBe(1_000_000 + 10_000 * 1_440 * 45 * 50);
    const shorter = projectStorage(
      input({
        retention: { rawDays: 7, minuteRollupDays: 7, hourRollupDays: 31, dayRollupDays: 91 },
        reach: {
          raw: NOW - 30 * DAY,
          minute: NOW - 90 * DAY,
          hour: NOW - 730 * DAY,
          day: NOW - 900 * DAY,
        },
      }),
    );
    // A shorter keep frees rows, but files keep their size: the size now is the floor.
    expect(shorter.projectedBytes).toBe(1_000_000);
    expect(shorter.projection.dayBytesPerYear).toBe(0);
  });

  it('warns when the growth needs more than the free disk, and never without a figure for it', () => {
    const growth = projectStorage(input()).projectedBytes - 1_000_000;
    expect(projectStorage(input({ freeDiskBytes: growth - 1 })).exceedsFreeDisk).toBe(true);
    expect(projectStorage(input({ freeDiskBytes: growth })).exceedsFreeDisk).toBe(false);
    expect(projectStorage(input({ freeDiskBytes: null })).exceedsFreeDisk).toBe(false);
    expect(projectStorage(input({ intervals: [], freeDiskBytes: 0 }))).toMatchObject({
      activeMonitors: 0,
      checksPerMinute: 0,
      projectedBytes: 1_000_000,
      exceedsFreeDisk: false,
    });
  });
});
