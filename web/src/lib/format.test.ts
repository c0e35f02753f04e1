import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatClock,
  formatDate,
  formatDateTime,
  formatInstantIn,
  formatRangeIn,
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

  it('writes the future with the same words as the past', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatRelative('2026-01-05T12:00:00Z', now)).toBe('in 4d');
    expect(formatRelative('2026-01-01T15:30:00Z', now)).toBe('in 3h');
    expect(formatRelative('2026-01-01T12:00:03Z', now)).toBe('just now');
    expect(formatRelative('not a time', now)).toBe('—');
  });

  it("groups the digits of long spans in the user's locale", () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const days = new Intl.NumberFormat(undefined).format(1500);
    expect(formatRelative(new Date(now - 1500 * 86_400_000).toISOString(), now)).toBe(
      `${days}d ago`,
    );
  });

  it('gives millisecond ages (heartbeats) in the relative words, a tenth below ten seconds', () => {
    expect(formatAge(0)).toBe('0.0s ago');
    expect(formatAge(1234)).toBe('1.2s ago');
    expect(formatAge(9_949)).toBe('9.9s ago');
    expect(formatAge(12_400)).toBe('12s ago');
    expect(formatAge(185_000)).toBe('3m ago');
    expect(formatAge(-1)).toBe('—');
  });

  it("writes absolute times in the user's locale and the display zone", () => {
    const iso = '2026-03-29T01:30:00Z';
    const t = Date.parse(iso);
    expect(formatDateTime(iso)).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(t),
    );
    expect(formatDate(iso)).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      }).format(t),
    );
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('garbage')).toBe('—');
  });

  it('writes a window in its own zone, repeating the date only when the end is another day', () => {
    // 01:30Z on 29 March 2026 is 03:30 in Berlin, after the change to summer time.
    const start = formatInstantIn('2026-03-29T01:30:00Z', 'Europe/Berlin');
    expect(start).toMatch(/03:30/);
    expect(start).toMatch(/2026/);
    const sameDay = formatRangeIn('2026-03-29T01:30:00Z', '2026-03-29T03:00:00Z', 'Europe/Berlin');
    expect(sameDay).toMatch(/^.*03:30 – 05:00$/);
    const nextDay = formatRangeIn('2026-03-29T20:00:00Z', '2026-03-29T23:00:00Z', 'Europe/Berlin');
    expect(nextDay.split(' – ')[1]).toMatch(/2026.*01:00$/);
    expect(formatRangeIn('x', 'y', 'UTC')).toBe('—');
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
