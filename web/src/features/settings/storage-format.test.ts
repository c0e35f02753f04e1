import { describe, expect, it } from 'vitest';
import { formatRate, formatSize } from './storage-format';

describe('storage figures in words', () => {
  it('sizes bytes in binary units with one decimal below ten', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1023)).toBe('1023 bytes');
    expect(formatSize(1024)).toBe('1.0 KiB');
    expect(formatSize(812 * 1024)).toBe('812 KiB');
    expect(formatSize(1.44 * 1024 ** 3)).toBe('1.4 GiB');
    expect(formatSize(312 * 1024 ** 3)).toBe('312 GiB');
  });

  it('says check rates a minute, or an hour when below one a minute', () => {
    expect(formatRate(0)).toBe('none');
    expect(formatRate(0.5)).toBe('30 an hour');
    expect(formatRate(4)).toBe('4.0 a minute');
    expect(formatRate(10_000)).toBe('10,000 a minute');
  });
});
