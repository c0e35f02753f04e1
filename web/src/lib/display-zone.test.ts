import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatShortDateTime, setDisplayTimeZone } from './format';

const AT = '2026-01-01T00:00:00.000Z';
// Whatever the test machine's locale: 00:00:00 or 12:00:00 AM.
const midnight = /(^|\D)(00|12):00:00/;

describe('the display time zone', () => {
  afterEach(() => setDisplayTimeZone(null));

  it('shows times in the instance zone once it is set, current IANA names included', () => {
    setDisplayTimeZone('Asia/Kolkata');
    expect(formatDateTime(AT)).toMatch(/(^|\D)0?5:30:00/);
    expect(formatShortDateTime(AT)).toMatch(/(^|\D)0?5:30:00/);
    setDisplayTimeZone('Europe/Kyiv');
    expect(formatDateTime(AT)).toMatch(/(^|\D)0?2:00:00/);
    setDisplayTimeZone('UTC');
    expect(formatDateTime(AT)).toMatch(midnight);
  });

  it('keeps the zone it had when given one this browser does not know', () => {
    setDisplayTimeZone('Asia/Kolkata');
    setDisplayTimeZone('Mars/Olympus_Mons');
    expect(formatDateTime(AT)).toMatch(/(^|\D)0?5:30:00/);
  });
});
