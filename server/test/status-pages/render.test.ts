import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/status-pages/markdown.js';
import { overallStatus, responseTimes } from '../../src/status-pages/present.js';
import { chartPaths } from '../../src/status-pages/render/ResponseTimes.js';
import { pageCss } from '../../src/status-pages/render/css.js';
import { renderStatusHtml } from '../../src/status-pages/render/index.js';
import { component, days, view } from './view-fixtures.js';

const page = (v = view()) => renderStatusHtml(v, '/status/acme', { kind: 'page' }).html;

describe('status page rendering', () => {
  it('says all systems are operational when every component is up', () => {
    const html = page();
    expect(html).toMatch(/^<!doctype html><html lang="en" data-theme="auto">/);
    expect(html).toContain('All systems operational');
    expect(html).toContain('<h3 class="name" dir="auto">API</h3>');
    expect(html).toContain('99.98% uptime');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('derives the banner from the components: partial, major, degraded, maintenance, no data', () => {
    expect(overallStatus(['up', 'down', 'up'])).toBe('partial_outage');
    expect(overallStatus(['down', 'down', 'up'])).toBe('major_outage');
    expect(overallStatus(['up', 'degraded'])).toBe('degraded');
    expect(overallStatus(['up', 'maintenance'])).toBe('maintenance');
    expect(overallStatus(['maintenance', 'paused'])).toBe('maintenance');
    expect(overallStatus(['pending', 'paused'])).toBe('no_data');
    expect(overallStatus([])).toBe('no_data');
    for (const [status, text] of [
      ['partial_outage', 'Partial outage'],
      ['major_outage', 'Major outage'],
      ['maintenance', 'Maintenance in progress'],
      ['no_data', 'No data yet'],
      ['degraded', 'Degraded performance'],
    ] as const) {
      const html = page(view({ status }));
      expect(html).toContain(`banner b-${status}`);
      expect(html).toContain(text);
    }
  });

  it('shows each component status and a no-data component with grey bars', () => {
    const html = page(
      view({
        sections: [
          {
            title: '',
            components: [
              component('Down one', 'down'),
              component('Fresh', 'pending', { uptime: null, days: days('none') }),
              component('Frozen', 'paused'),
              component('Serviced', 'maintenance'),
            ],
          },
        ],
      }),
    );
    expect(html).toContain('<span class="st s-down">Outage</span>');
    expect(html).toContain('<span class="st s-pending">No data yet</span>');
    expect(html).toContain('<span class="st s-paused">Not monitored</span>');
    expect(html).toContain('<span class="st s-maintenance">Under maintenance</span>');
    expect(html).toContain('No uptime data yet');
    expect(html).toContain('aria-label="Daily uptime of Fresh, last 90 days: no data yet"');
    expect(html).toContain('<i class=n tabindex=-1></i>');
  });

  it('makes the days worth a look tab stops with labels, and dates every bar by position', () => {
    const mixed = days('up');
    mixed[89] = { ...mixed[89]!, state: 'down', uptime: 99.3, outages: 1 };
    mixed[80] = { ...mixed[80]!, state: 'degraded', uptime: 99.9 };
    mixed[70] = { ...mixed[70]!, state: 'maintenance', uptime: null };
    mixed[0] = { ...mixed[0]!, state: 'none', uptime: null };
    const html = page(
      view({ sections: [{ title: 'x', components: [component('API', 'down', { days: mixed })] }] }),
    );
    expect(html).toContain(
      'aria-label="Daily uptime of API, last 90 days: 1 day down, 1 day degraded, 1 day of maintenance"',
    );
    expect(html).toContain(
      '<i class=d role=img tabindex=0 aria-label="22 Nov: 99.3% up, 1 outage"></i>',
    );
    expect(html).toContain('<i class=g role=img tabindex=0 aria-label="13 Nov: 99.9% up"></i>');
    expect(html).toContain('<i class=m role=img tabindex=0 aria-label="3 Nov: maintenance"></i>');
    expect(html.match(/tabindex=0/g)).toHaveLength(3);
    // Plain days: up by default, grey without data, their tooltip from the stylesheet.
    expect(html.match(/<i tabindex=-1><\/i>/g)).toHaveLength(86);
    expect(html).toContain('<i class=n tabindex=-1></i>');
    expect(html).toContain('.bars>:nth-child(1){--d:"25 Aug"}');
    expect(html).toContain('.bars>:nth-child(90){--d:"22 Nov"}');
  });

  it('keeps long names and right-to-left text in their own direction', () => {
    const long = 'Really-long-component-name-without-spaces-'.repeat(3);
    const html = page(
      view({
        title: 'حالة الخدمة',
        sections: [
          { title: 'الخدمات', components: [component(long), component('واجهة برمجة التطبيقات')] },
        ],
      }),
    );
    expect(html).toContain('<h2 dir="auto">الخدمات</h2>');
    expect(html).toContain('<h3 class="name" dir="auto">واجهة برمجة التطبيقات</h3>');
    expect(html).toContain(long);
    expect(html).toContain('<a href="/status/acme">حالة الخدمة</a>');
  });

  it('fits 50 components with 90-day bars in 30 KB of gzip', () => {
    const components = Array.from({ length: 50 }, (_, i) => component(`Service number ${i + 1}`));
    const html = page(view({ sections: [{ title: 'All', components }] }));
    expect(gzipSync(html).length).toBeLessThanOrEqual(30 * 1024);
  });

  it('renders the description as sanitised Markdown with safe links only', () => {
    const html = renderMarkdown(
      '# Hi\n\n**bold** [site](https://example.com) [bad](javascript:alert(1)) <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[mail](mailto:a@example.com) [data](data:text/html,hi)',
    );
    expect(html).toContain('<h2>Hi</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener">site</a>');
    expect(html).toContain('<a href="mailto:a@example.com" rel="nofollow ugc noopener">mail</a>');
    expect(html).not.toMatch(/href="(javascript|data):|<script|<img/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('never writes anything but a #rrggbb accent into the stylesheet', () => {
    expect(pageCss('auto', '#ff0000')).toContain('--accent:#ff0000');
    const evil = pageCss('auto', 'red}</style><script>alert(1)</script>');
    expect(evil).not.toContain('</style>');
    expect(evil).toContain('--accent:#2563eb');
  });

  it('offers the subscribe link only when the page allows subscriptions', () => {
    expect(page()).not.toContain('Subscribe');
    expect(page(view({ subscribeUrl: '/status/acme/subscribe' }))).toContain(
      '<a class="sub" href="/status/acme/subscribe">Subscribe to updates</a>',
    );
  });

  it('draws the response time chart with gaps for hours without checks, and says it in words', () => {
    const hours = Array.from({ length: 24 }, (_, i) => (i === 5 || i === 6 ? null : 100 + i));
    const html = page(
      view({
        sections: [
          {
            title: 'x',
            components: [
              component('API', 'up', {
                responseTimes: { hours, avgMs: 112, maxMs: 123 },
              }),
              component('Quiet', 'up', {
                responseTimes: { hours: new Array(24).fill(null), avgMs: null, maxMs: null },
              }),
            ],
          },
        ],
      }),
    );
    expect(html).toContain(
      'aria-label="Response time of API, last 24 hours: average 112 ms, slowest hour 123 ms"',
    );
    expect(html).toContain('avg 112 ms · max 123 ms');
    expect(html).toContain('aria-label="Response time of Quiet, last 24 hours: no timed checks"');
    const { line, area } = chartPaths(hours);
    // Two runs of hours: before the gap and after it.
    expect(line.match(/M/g)).toHaveLength(2);
    expect(area.match(/Z/g)).toHaveLength(2);
    expect(line.startsWith('M0,')).toBe(true);
    expect(line.endsWith('230,4')).toBe(true); // the slowest hour touches the top
    expect(chartPaths([null, 50, null])).toEqual({ line: 'M8,4h4', area: '' });
    expect(chartPaths(new Array(24).fill(null))).toEqual({ line: '', area: '' });
  });

  it('averages the hours into the chart, weighted by checks', () => {
    // Per hour: summed latency (µs), timed checks.
    const grid = new Float64Array(48);
    grid.set([300_000, 3], 0);
    grid.set([900_000, 1], 46);
    const chart = responseTimes(grid);
    expect(chart.hours[0]).toBe(100);
    expect(chart.hours[23]).toBe(900);
    expect(chart.hours.filter((h) => h === null)).toHaveLength(22);
    expect(chart).toMatchObject({ avgMs: 300, maxMs: 900 });
  });
});
