import { createHash } from 'node:crypto';
import { currentZoneName } from '@pagewatch/contract';
import { TIMES_JS } from './times.js';

/** Old zone names browsers still answer (Asia/Calcutta) → the current ones, as the app says them. */
const RENAMED = JSON.stringify(
  Object.fromEntries(
    Intl.supportedValuesOf('timeZone')
      .map((z) => [z, currentZoneName(z)])
      .filter(([z, current]) => z !== current),
  ),
);

/**
 * The status page's only script, optional: every time in the visitor's own zone (the server
 * wrote them in the page's zone, with the same words: times.ts), relative hints beside the times
 * where they help ("starts in 4 days"), arrow keys across the day bars, and a refresh of the
 * page's content every 60 s while the tab is visible.
 * The page is complete without it; CSP allows it as 'self'.
 */
export const ENHANCE_JS = `(function () {
  ${TIMES_JS}
  var zone = null;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (e) {}
  var renamed = ${RENAMED};
  var rtf = window.Intl && Intl.RelativeTimeFormat
    ? new Intl.RelativeTimeFormat(document.documentElement.lang || 'en', { numeric: 'auto' })
    : null;
  var steps = [[60, 1, 'second'], [3600, 60, 'minute'], [86400, 3600, 'hour'], [2592000, 86400, 'day']];
  function each(selector, fn) {
    document.querySelectorAll(selector).forEach(function (el) {
      try { fn(el); } catch (e) { /* a time the runtime cannot write stays as the server wrote it */ }
    });
  }
  function when(el, name) { return Date.parse(el.getAttribute(name)); }
  // Once: the server's text names the page's zone; this names the visitor's.
  function localise() {
    if (!zone) return;
    var now = Date.now();
    each('time[data-at]', function (t) { t.textContent = pwTimes.at(when(t, 'datetime'), zone, now); });
    each('time[data-until]', function (t) { t.textContent = pwTimes.until(when(t, 'datetime'), zone, now); });
    each('[data-from][data-to]', function (r) {
      r.textContent = pwTimes.range(when(r, 'data-from'), when(r, 'data-to'), zone, now);
    });
    each('[data-tz]', function (p) {
      var name = (renamed[zone] || zone).replace(/_/g, ' ');
      p.textContent = 'Times are in your time zone, ' + name + ' (' + pwTimes.zoneName(now, zone) + ').';
    });
  }
  function relative() {
    if (!rtf) return;
    var now = Date.now();
    each('[data-rel]', function (t) {
      var at = when(t, 'data-rel');
      if (isNaN(at)) return;
      var s = (at - now) / 1000;
      for (var i = 0; i < steps.length; i++) {
        if (Math.abs(s) < steps[i][0]) {
          t.textContent = rtf.format(Math.round(s / steps[i][1]), steps[i][2]);
          t.parentElement.hidden = false;
          return;
        }
      }
      t.parentElement.hidden = true;
    });
  }
  function enhance() { localise(); relative(); }
  var last = Date.now();
  function refresh() {
    if (document.visibilityState !== 'visible' || Date.now() - last < 60000) return;
    var main = document.querySelector('main');
    // Someone reading a tooltip or a link keeps the page as it is until they move on.
    if (!main || main.contains(document.activeElement)) return;
    last = Date.now();
    // Revalidated each time: the HTTP cache's max-age and stale-while-revalidate would add a minute.
    fetch(location.href, { headers: { accept: 'text/html' }, cache: 'no-cache' })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var style = document.querySelector('style'), nextStyle = doc.querySelector('style');
        // A new stylesheet (the bars' dates move at midnight, the theme may change) is allowed
        // only by the new page's CSP: load the page whole.
        if (style && nextStyle && style.textContent !== nextStyle.textContent) return location.reload();
        var next = doc.querySelector('main');
        if (next) { main.replaceWith(next); enhance(); }
      })
      .catch(function () {});
  }
  // Day bars: the arrow keys, Home and End walk every day of a component (without the script
  // only the days worth a look are tab stops), and a plain day gets its tooltip as its name.
  function isBar(el) { return el && el.tagName === 'I' && el.parentElement && el.parentElement.classList.contains('bars'); }
  document.addEventListener('keydown', function (e) {
    var el = document.activeElement;
    if (!isBar(el)) return;
    var days = Array.prototype.filter.call(el.parentElement.children, function (d) { return d.offsetParent !== null; });
    var i = days.indexOf(el);
    var rtl = getComputedStyle(el.parentElement).direction === 'rtl';
    var next = { ArrowLeft: rtl ? i + 1 : i - 1, ArrowRight: rtl ? i - 1 : i + 1, Home: 0, End: days.length - 1 }[e.key];
    if (next === undefined || !days[next]) return;
    e.preventDefault();
    days[next].focus();
  });
  document.addEventListener('focusin', function (e) {
    var el = e.target;
    if (!isBar(el) || el.hasAttribute('aria-label')) return;
    var tip = getComputedStyle(el, '::after').content;
    if (!tip || tip === 'none') return;
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', tip.replace(/^"|"$/g, ''));
  });
  enhance();
  setInterval(relative, 15000);
  setInterval(refresh, 5000);
  document.addEventListener('visibilitychange', refresh);
})();
`;

export const ENHANCE_HASH = createHash('sha256').update(ENHANCE_JS).digest('hex').slice(0, 12);
export const ENHANCE_URL = `/status/assets/enhance.js?v=${ENHANCE_HASH}`;
