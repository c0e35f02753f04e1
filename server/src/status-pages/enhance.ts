import { createHash } from 'node:crypto';

/**
 * The status page's only script, optional: relative times ("3 min ago", the absolute time kept
 * as a tooltip), arrow keys across the day bars, and a refresh of the page's content every
 * 60 s while the tab is visible.
 * The page is complete without it; CSP allows it as 'self'.
 */
export const ENHANCE_JS = `(function () {
  var rtf = window.Intl && Intl.RelativeTimeFormat
    ? new Intl.RelativeTimeFormat(document.documentElement.lang || 'en', { numeric: 'auto', style: 'short' })
    : null;
  var steps = [[60, 1, 'second'], [3600, 60, 'minute'], [86400, 3600, 'hour'], [2592000, 86400, 'day']];
  function relative() {
    if (!rtf) return;
    var now = Date.now();
    document.querySelectorAll('time[data-rel]').forEach(function (t) {
      var at = Date.parse(t.getAttribute('datetime'));
      if (isNaN(at)) return;
      if (!t.title) t.title = t.textContent;
      var s = (at - now) / 1000;
      for (var i = 0; i < steps.length; i++) {
        if (Math.abs(s) < steps[i][0]) {
          t.textContent = rtf.format(Math.round(s / steps[i][1]), steps[i][2]);
          return;
        }
      }
    });
  }
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
        if (next) { main.replaceWith(next); relative(); }
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
  relative();
  setInterval(relative, 15000);
  setInterval(refresh, 5000);
  document.addEventListener('visibilitychange', refresh);
})();
`;

export const ENHANCE_HASH = createHash('sha256').update(ENHANCE_JS).digest('hex').slice(0, 12);
export const ENHANCE_URL = `/status/assets/enhance.js?v=${ENHANCE_HASH}`;
