import { PublicStatusPage, Report } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { formatPercent } from '../../src/status-pages/render/labels.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput, onceMaintenanceInput } from '../support/factories.js';
import { tenMinuteHistory, writeAsTheEngine, type GenCheck } from '../support/history.js';
import { json } from '../support/status-page-api.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = Date.parse('2026-04-15T10:30:00Z');
const at = (s: string) => Date.parse(s);
const ZONE = 'Europe/Berlin';

/** March holds an outage inside maintenance and one partly corrected; April one corrected. */
const OUTAGES = [
  { start: at('2026-03-10T10:00:00Z'), end: at('2026-03-10T10:40:00Z') },
  { start: at('2026-03-20T12:00:00Z'), end: at('2026-03-20T13:00:00Z') },
  { start: at('2026-04-15T08:00:00Z'), end: at('2026-04-15T08:30:00Z') },
];
const MAINTENANCE = { start: at('2026-03-10T10:00:00Z'), end: at('2026-03-10T11:00:00Z') };
const CORRECTIONS = [
  { start: at('2026-03-20T12:00:00Z'), end: at('2026-03-20T12:30:00Z') },
  { start: at('2026-04-15T08:10:00Z'), end: at('2026-04-15T08:20:00Z') },
];

/** A check every 10 minutes from 20 January, degraded now and then. */
const history = (monitorId: number): GenCheck[] =>
  tenMinuteHistory({
    monitorId,
    from: at('2026-01-20T00:00:17Z'),
    to: NOW,
    outages: OUTAGES,
    latencyUs: () => 100_000,
  });

/** Issue 20 item 6 (ADR 66): the status page's months are the report's months. */
describe.each(engines)('monthly uptime on a status page on %s', (engine) => {
  let t: TestApp;
  let monitorId: number;
  let slug: string;

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    const repos = repositories(t.database);
    monitorId = (
      await repos.monitors.insert(monitorInput({ name: 'Checkout API' }), NOW - 90 * DAY)
    ).id;
    await writeAsTheEngine(repos.results, history(monitorId), MAINTENANCE);
    const maint = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      ...json(onceMaintenanceInput(monitorId, MAINTENANCE)),
    });
    expect(maint.statusCode, maint.body).toBe(201);
    for (const c of CORRECTIONS) {
      const res = await t.inject({
        method: 'POST',
        url: `/api/v1/monitors/${monitorId}/corrections`,
        ...json({
          startsAt: new Date(c.start).toISOString(),
          endsAt: new Date(c.end).toISOString(),
          reason: 'False positive',
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    slug = `months-${engine}`;
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      ...json({
        slug,
        title: 'Acme',
        published: true,
        timeZone: ZONE,
        show: { uptimeBars: true, monthlyUptime: true },
        sections: [{ title: 'Core', components: [{ monitorId }] }],
      }),
    });
    expect(page.statusCode, page.body).toBe(201);
  }, 300_000);
  afterAll(async () => t?.stop());

  const report = async (month: string) => {
    const res = await t.inject({
      url: `/api/v1/reports?subject=monitor&id=${monitorId}&range=month&period=${month}&timeZone=${encodeURIComponent(ZONE)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return Report.parse(res.json());
  };

  it('shows the last 12 months in the page’s zone with the report’s figures', async () => {
    const res = await t.inject({ url: `/status/${slug}/index.json` });
    expect(res.statusCode, res.body).toBe(200);
    const view = PublicStatusPage.parse(res.json());
    const months = view.sections[0]!.components[0]!.months!;
    expect(months.map((m) => m.month)).toEqual([
      ...['2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11'],
      ...['2025-12', '2026-01', '2026-02', '2026-03', '2026-04'],
    ]);
    expect(months[0]).toEqual({ month: '2025-05', uptime: null, state: 'none' });
    for (const m of months.slice(8)) {
      const r = await report(m.month);
      expect(m.uptime, m.month).toBe(r.uptime);
      expect(r.uptime).not.toBeNull();
    }
    // March: maintenance and a correction changed the figure; both are in the report.
    const march = await report('2026-03');
    expect(march.monitors[0]!.maintenanceMs).toBeGreaterThan(0);
    expect(march.corrections).toHaveLength(1);
    expect(months[10]!.state).toBe('degraded');
    expect(months[10]!.uptime).toBeLessThan(100);
    // Without the exclusions it would show less.
    const [from, to] = [Date.parse(march.from), Date.parse(march.to)];
    const checks = history(monitorId).filter((c) => c.at >= from && c.at < to);
    const raw = checks.filter((c) => c.outcome !== 'down').length / checks.length;
    expect(months[10]!.uptime!).toBeGreaterThan(Math.round(raw * 100_000) / 1000);
  });

  it('writes each month in words on the HTML page', async () => {
    const res = await t.inject({ url: `/status/${slug}` });
    expect(res.statusCode).toBe(200);
    const march = (await report('2026-03')).uptime!;
    expect(res.body).toContain('aria-label="Monthly uptime of Checkout API"');
    expect(res.body).toContain(
      `<span class="vh">March 2026: </span><span class="mo-v">${formatPercent(march)}</span>`,
    );
    expect(res.body).toContain('May 2025 – Apr 2026');
  });
});
