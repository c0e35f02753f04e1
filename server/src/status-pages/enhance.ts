import { createHash } from 'node:crypto';

/**
 * The status page's only script, optional: relative times ("3 min ago", the absolute time kept
 * as a tooltip) and a refresh of the page's content every 60 s while the tab is visible.
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
    fetch(location.href, { headers: { accept: 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var next = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
        if (next) { main.replaceWith(next); relative(); }
      })
      .catch(function () {});
  }
  relative();
  setInterval(relative, 15000);
  setInterval(refresh, 5000);
  document.addEventListener('visibilitychange', refresh);
})();
`;

export const ENHANCE_HASH = createHash('sha256').update(ENHANCE_JS).digest('hex').slice(0, 12);
export const ENHANCE_URL = `/status/assets/enhance.js?v=${ENHANCE_HASH}`;
