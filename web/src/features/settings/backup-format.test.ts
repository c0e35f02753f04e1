import { describe, expect, it } from 'vitest';
import { formatBackupDuration, formatBackupSize } from './backup-format';

describe('backup figures', () => {
  it('writes sizes in binary units', () => {
    expect(formatBackupSize(0)).toBe('0 bytes');
    expect(formatBackupSize(812 * 1024)).toBe('812 KiB');
    expect(formatBackupSize(1.44 * 1024 ** 3)).toBe('1.4 GiB');
  });
  it('writes durations in seconds, then minutes', () => {
    expect(formatBackupDuration(40)).toBe('under 0.1 s');
    expect(formatBackupDuration(420)).toBe('0.4 s');
    expect(formatBackupDuration(12_300)).toBe('12 s');
    expect(formatBackupDuration(185_000)).toBe('3 min 5 s');
  });
});
