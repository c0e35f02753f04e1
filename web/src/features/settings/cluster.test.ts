import { describe, expect, it } from 'vitest';
import { formatMiB, formatRate, formatShare, mixedVersions, unownedTitle } from './cluster';

describe('Settings → Cluster figures', () => {
  it('gives a share of the partitions that is 100% only when all are owned', () => {
    expect(formatShare(1024, 1024)).toBe('100%');
    expect(formatShare(1023, 1024)).toBe('99.9%');
    expect(formatShare(512, 1024)).toBe('50%');
    expect(formatShare(341, 1024)).toBe('33.3%');
    expect(formatShare(1, 1024)).toBe('0.1%');
    expect(formatShare(0, 1024)).toBe('0%');
    expect(formatShare(3, 0)).toBe('0%');
  });

  it('gives memory in whole MiB and rates with a decimal only when small', () => {
    expect(formatMiB(148_897_792)).toBe('142');
    expect(formatMiB(1536 * 1024 * 1024)).toBe('1,536');
    expect(formatRate(0)).toBe('0');
    expect(formatRate(0.5)).toBe('0.5');
    expect(formatRate(118.4)).toBe('118');
  });

  it('names the versions of a rolling upgrade, and nothing when all agree', () => {
    expect(mixedVersions([])).toBeNull();
    expect(mixedVersions([{ version: '0.1.0' }, { version: '0.1.0' }])).toBeNull();
    expect(mixedVersions([{ version: '0.1.0' }, { version: '0.2.0' }, { version: '0.2.0' }])).toBe(
      '0.2.0 on 2 processes, 0.1.0 on 1',
    );
    expect(mixedVersions([{ version: '0.9.0' }, { version: '0.10.0' }])).toBe(
      '0.10.0 on 1 process, 0.9.0 on 1',
    );
  });

  it('warns about unowned partitions in words that fit the count', () => {
    expect(unownedTitle(0, 1024)).toBeNull();
    expect(unownedTitle(1, 1024)).toBe('1 partition of 1,024 has no owner');
    expect(unownedTitle(324, 1024)).toBe('324 partitions of 1,024 have no owner');
    expect(unownedTitle(1024, 1024)).toBe('None of the 1,024 partitions has an owner');
  });
});
