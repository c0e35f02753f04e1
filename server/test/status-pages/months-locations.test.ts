import { describe, expect, it } from 'vitest';
import { lastMonths, presentMonths } from '../../src/status-pages/months.js';
import { presentLocations } from '../../src/status-pages/locations.js';
import { overallStatus } from '../../src/status-pages/present.js';
import { renderStatusHtml } from '../../src/status-pages/render/index.js';
import type { Availability } from '../../src/domain/availability/index.js';
import { component, view } from './view-fixtures.js';

const page = (v = view()) => renderStatusHtml(v, '/status/acme', { kind: 'page' }).html;
const NOW = Date.parse('2026-11-22T06:00:00Z');

const figure = (up: number, down: number, degraded = 0): Availability => ({
  from: 0,
  to: 0,
  checks: up + down + degraded,
  up,
  degraded,
  down,
  excludedChecks: 0,
  uptime: up + down + degraded === 0 ? null : ((up + degraded) / (up + down + degraded)) * 100,
  countedMs: 0,
  downtimeMs: 0,
  maintenanceMs: 0,
  correctedMs: 0,
});

describe('monthly uptime (ADR 66)', () => {
  it('cuts the last 12 months at the zone’s midnight, the current one last', () => {
    const utc = lastMonths(NOW, 'UTC');
    expect(utc.map((p) => p.label)).toEqual([
      ...['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'],
      ...['2026-07', '2026-08', '2026-09', '2026-10', '2026-11'],
    ]);
    expect(new Date(utc[0]!.start).toISOString()).toBe('2025-12-01T00:00:00.000Z');
    expect(new Date(utc.at(-1)!.end).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    // Tokyo is already in December at 06:00 UTC on 30 November.
    const tokyo = lastMonths(Date.parse('2026-11-30T16:00:00Z'), 'Asia/Tokyo');
    expect(tokyo.at(-1)!.label).toBe('2026-12');
    expect(new Date(tokyo.at(-1)!.start).toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('colours a month as a day bar is coloured, and a month without checks as none', () => {
    const periods = lastMonths(NOW, 'UTC').slice(0, 4);
    const months = presentMonths(periods, [
      figure(0, 0),
      figure(100, 0),
      figure(995, 5),
      figure(90, 10),
    ]);
    expect(months.map((m) => m.state)).toEqual(['none', 'up', 'degraded', 'down']);
    expect(months[0]).toEqual({ month: '2025-12', uptime: null, state: 'none' });
    expect(months[2]!.uptime).toBe(99.5);
  });

  it('renders 12 cells that say month and figure in words', () => {
    const months = presentMonths(
      lastMonths(NOW, 'UTC'),
      Array.from({ length: 12 }, (_, i) => (i === 0 ? undefined : figure(999, 1))),
    );
    const html = page(
      view({ sections: [{ title: '', components: [component('API', 'up', { months })] }] }),
    );
    expect(html.match(/<li class="mo mo-/g)).toHaveLength(12);
    expect(html).toContain('aria-label="Monthly uptime of API"');
    expect(html).toContain(
      '<span class="vh">December 2025: </span><span class="mo-v">no data</span>',
    );
    expect(html).toContain(
      '<span class="vh">November 2026: </span><span class="mo-v">99.9%</span>',
    );
    expect(html).toContain('Dec 2025 – Nov 2026');
  });
});

describe('locations on a status page (ADR 66)', () => {
  const state = {
    monitorId: 1,
    intervalS: 60,
    locations: [
      { id: 'b', name: 'US East' },
      { id: 'a', name: 'EU West' },
      { id: 'c', name: 'Sydney' },
    ],
    verdicts: [
      { locationId: 'a', outcome: 'down' as const, checkedAt: NOW - 30_000 },
      { locationId: 'b', outcome: 'up' as const, checkedAt: NOW - 30_000 },
      // Older than an interval and its grace: it has nothing to say now.
      { locationId: 'c', outcome: 'up' as const, checkedAt: NOW - 120_000 },
    ],
  };

  it('shows each location by name, a stale one as unknown, and names the failing ones', () => {
    expect(presentLocations(state, 'regional', NOW)).toEqual({
      locations: [
        { name: 'EU West', status: 'down' },
        { name: 'Sydney', status: 'unknown' },
        { name: 'US East', status: 'up' },
      ],
      failing: ['EU West'],
    });
    expect(presentLocations(state, 'up', NOW)?.failing).toBeUndefined();
  });

  it('shows nothing for one location or a paused monitor', () => {
    expect(
      presentLocations({ ...state, locations: state.locations.slice(0, 1) }, 'up', NOW),
    ).toBeNull();
    expect(presentLocations(undefined, 'up', NOW)).toBeNull();
    expect(presentLocations(state, 'paused', NOW)).toBeNull();
  });

  it('escapes location names and says REGIONAL in amber naming where', () => {
    const evil = '<script>alert(1)</script>';
    const c = component('API', 'regional', {
      locations: [
        { name: evil, status: 'down' },
        { name: 'US East', status: 'up' },
      ],
      failing: [evil],
    });
    const html = page(view({ sections: [{ title: '', components: [c] }] }));
    expect(html).not.toContain(evil);
    expect(html).toContain('Degraded in &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(
      '<span class="loc-n" dir="auto">&lt;script&gt;alert(1)&lt;/script&gt;</span>',
    );
    expect(html).toContain('class="st s-regional st-long"');
    expect(html).toContain('aria-label="Status of API by location"');
  });

  it('says "Degraded in some regions" when the component does not show its locations', () => {
    const html = page(
      view({ sections: [{ title: '', components: [component('API', 'regional')] }] }),
    );
    expect(html).toContain('Degraded in some regions');
  });

  it('never calls a page with an unknown component operational', () => {
    expect(overallStatus(['up', 'unknown'])).toBe('unknown');
    expect(overallStatus(['unknown'])).toBe('unknown');
    expect(overallStatus(['degraded', 'unknown'])).toBe('degraded');
    expect(overallStatus(['regional', 'unknown'])).toBe('partial_outage');
    const html = page(view({ status: 'unknown' }));
    expect(html).toContain('banner b-unknown');
    expect(html).toContain('Some components’ status is unknown');
  });
});
