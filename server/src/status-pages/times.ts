/**
 * How a public status page writes its times, as one piece of plain JavaScript that runs in
 * both places: on the server (the page's zone, named beside each time, for visitors without
 * script) and in the page's script (the visitor's own zone). One source means the two can
 * never word a time differently (ADR 36).
 *
 * - a moment: "Mon 2 Dec, 10:00 CET" (the year only when it is not the current one);
 * - a range: "from Mon 2 Dec 10:00 to 12:00 (CET)", the end's date only when it differs,
 *   each end's zone when a clock change falls inside;
 * - an end: "until 12:00 (CET)", with the date when it is not today.
 *
 * Dates are assembled from parts (not a locale's pattern) so Node's and the browser's ICU give
 * the same words.
 */
export const TIMES_JS = `var pwTimes = (function () {
  var formats = {};
  function parts(t, zone) {
    var f = formats[zone];
    if (!f) {
      f = formats[zone] = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric',
        hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
      });
    }
    var o = {};
    f.formatToParts(new Date(t)).forEach(function (p) { o[p.type] = p.value; });
    return { date: o.weekday + ' ' + o.day + ' ' + o.month, year: o.year, time: o.hour + ':' + o.minute,
      key: o.year + ' ' + o.month + ' ' + o.day };
  }
  function zoneName(t, zone) {
    var names = ['en-US', 'en-GB'].map(function (locale) {
      var found = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
        .formatToParts(new Date(t)).filter(function (p) { return p.type === 'timeZoneName'; })[0];
      return found ? found.value : zone;
    });
    // en-US knows American abbreviations (EST), en-GB European ones (CET); else GMT+5:30.
    for (var i = 0; i < names.length; i++) if (!/^GMT[+-]/.test(names[i])) return names[i];
    return names[0];
  }
  function day(p, withYear) { return p.date + (withYear ? ' ' + p.year : ''); }
  function at(t, zone, now) {
    var p = parts(t, zone);
    return day(p, p.year !== parts(now, zone).year) + ', ' + p.time + ' ' + zoneName(t, zone);
  }
  function range(start, end, zone, now) {
    var a = parts(start, zone), b = parts(end, zone), n = parts(now, zone);
    var withYear = a.year !== b.year || a.year !== n.year;
    var za = zoneName(start, zone), zb = zoneName(end, zone);
    var from = day(a, withYear) + ' ' + a.time;
    var to = (a.key === b.key ? '' : day(b, withYear) + ' ') + b.time;
    return za === zb
      ? 'from ' + from + ' to ' + to + ' (' + za + ')'
      : 'from ' + from + ' (' + za + ') to ' + to + ' (' + zb + ')';
  }
  function until(end, zone, now) {
    var b = parts(end, zone), n = parts(now, zone);
    return 'until ' + (b.key === n.key ? '' : day(b, b.year !== n.year) + ' ') + b.time +
      ' (' + zoneName(end, zone) + ')';
  }
  return { at: at, range: range, until: until, zoneName: zoneName };
})();`;

export interface PageTimes {
  /** "Mon 2 Dec, 10:00 CET" */
  at(t: number, zone: string, now: number): string;
  /** "from Mon 2 Dec 10:00 to 12:00 (CET)" */
  range(start: number, end: number, zone: string, now: number): string;
  /** "until 12:00 (CET)" */
  until(end: number, zone: string, now: number): string;
  /** "CET", "EST", "UTC", "GMT+5:30" */
  zoneName(t: number, zone: string): string;
}

// The same text the browser runs, evaluated once; it only formats (no I/O, no input as code).
// eslint-disable-next-line @typescript-eslint/no-implied-eval
export const pageTimes = new Function(`${TIMES_JS}\nreturn pwTimes;`)() as PageTimes;
