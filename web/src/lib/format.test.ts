import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatMs,
  formatPercent,
  formatRelative,
  formatSeconds,
  formatWait,
} from './format';

describe('formatting', () => {
  it('formats latencies for people', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(0.42)).toBe('0.42 ms');
    expect(formatMs(2.978)).toBe('3.0 ms');
    expect(formatMs(84.4)).toBe('84 ms');
    expect(formatMs(1240)).toBe('1.24 s');
    expect(formatMs(12_345)).toBe('12.3 s');
  });

  it('never rounds uptime up to 100%', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(99.996)).toBe('99.99%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(null)).toBe('—');
  });

  it('gives compact relative times', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatRelative('2026-01-01T11:59:58Z', now)).toBe('just now');
    expect(formatRelative('2026-01-01T11:59:18Z', now)).toBe('42s ago');
    expect(formatRelative('2026-01-01T11:55:00Z', now)).toBe('5m ago');
    expect(formatRelative('2025-12-30T12:00:00Z', now)).toBe('2d ago');
    expect(formatRelative(null, now)).toBe('—');
  });

  it('formats intervals', () => {
    expect(formatSeconds(30)).toBe('30 s');
    expect(formatSeconds(90)).toBe('1 min 30 s');
    expect(formatSeconds(86_400)).toBe('1 d');
  });

  it('says how long to wait in words, rounded up', () => {
    expect(formatWait(30)).toBe('30 seconds');
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(900)).toBe('15 minutes');
    expect(formatWait(3601)).toBe('2 hours');
    expect(formatClock(845)).toBe('14:05');
  });
});
