import { describe, expect, it } from 'vitest';
import {
  quietUntil,
  sendTime,
  windowEndAt,
  type QuietWindow,
} from '../../src/domain/quiet-hours/index.js';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const everyDay = [0, 1, 2, 3, 4, 5, 6];
const nights = (timeZone: string): QuietWindow => ({
  days: everyDay,
  from: '22:00',
  to: '07:00',
  timeZone,
});

describe('quiet hours', () => {
  it('a warning at 23:30 in Berlin waits until 07:00; a critical one goes at once', () => {
    const t = at('2026-11-27T22:30:00Z'); // 23:30 CET
    expect(sendTime({ severity: 'warning', at: t, windows: [nights('Europe/Berlin')] })).toEqual({
      sendAt: at('2026-11-28T06:00:00Z'), // 07:00 CET
      delayed: true,
    });
    expect(sendTime({ severity: 'critical', at: t, windows: [nights('Europe/Berlin')] })).toEqual({
      sendAt: t,
      delayed: false,
    });
  });

  it('outside the window nothing waits; the window ends at its own minute', () => {
    const w = [nights('Europe/Berlin')];
    expect(sendTime({ severity: 'warning', at: at('2026-11-27T12:00:00Z'), windows: w })).toEqual({
      sendAt: at('2026-11-27T12:00:00Z'),
      delayed: false,
    });
    expect(quietUntil(w, at('2026-11-28T06:00:00Z'))).toBeNull(); // 07:00 exactly: over
    expect(iso(quietUntil(w, at('2026-11-28T05:59:00Z')))).toBe('2026-11-28T06:00:00.000Z');
  });

  it('the night the clocks go forward in Berlin (29 March 2026) ends at 07:00 CEST', () => {
    expect(iso(quietUntil([nights('Europe/Berlin')], at('2026-03-28T23:00:00Z')))).toBe(
      '2026-03-29T05:00:00.000Z',
    );
  });

  it('the night the clocks go back in New York (1 November 2026) ends at 07:00 EST', () => {
    expect(iso(quietUntil([nights('America/New_York')], at('2026-11-01T05:30:00Z')))).toBe(
      '2026-11-01T12:00:00.000Z',
    );
  });

  it('a weekday-nights window covers Friday night (it starts on Friday) but not Saturday night', () => {
    const weekdays: QuietWindow = { ...nights('Europe/Berlin'), days: [1, 2, 3, 4, 5] };
    // Friday 27 Nov 23:00 CET → Saturday 07:00.
    expect(iso(windowEndAt(weekdays, at('2026-11-27T22:00:00Z')))).toBe('2026-11-28T06:00:00.000Z');
    // Saturday 28 Nov 23:00 CET: no window started on Saturday.
    expect(windowEndAt(weekdays, at('2026-11-28T22:00:00Z'))).toBeNull();
  });

  it('windows in a row are waited out together (a weekend, then a night)', () => {
    const weekend: QuietWindow = { days: [6, 0], from: '00:00', to: '23:59', timeZone: 'UTC' };
    const night: QuietWindow = { days: everyDay, from: '23:00', to: '08:00', timeZone: 'UTC' };
    // Saturday noon → Saturday 23:59 → (in the night window from 23:00) Sunday 08:00 → Sunday
    // is weekend until 23:59 → the night until Monday 08:00.
    expect(iso(quietUntil([weekend, night], at('2026-11-28T12:00:00Z')))).toBe(
      '2026-11-30T08:00:00.000Z',
    );
  });
});
