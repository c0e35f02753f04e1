import { MonitorList, MonitorStats, Report } from '@pagewatch/contract';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { csvColumns } from '../../src/reports/csv.js';
import { windowRange } from '../../src/domain/windows.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput, onceMaintenanceInput } from '../support/factories.js';
import {
  tenMinuteHistory,
  writeAsTheEngine,
  type GenCheck,
  type Span,
} from '../support/history.js';
import { json } from '../support/status-page-api.js';
import { insertStatusPage } from '../support/status-pages.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-04-15T10:30:00Z');
const at = (s: string) => Date.parse(s);

/** Failures: one inside maintenance, one across a UTC midnight, one partly corrected. */
const OUTAGES: Span[] = [
  { start: at('2026-03-10T10:00:00Z'), end: at('2026-03-10T10:40:00Z') },
  { start: at('2026-03-20T23:30:00Z'), end: at('2026-03-21T00:30:00Z') },
  { start: at('2026-04-15T08:00:00Z'), end: at('2026-04-15T08:30:00Z') },
];
const MAINTENANCE = { start: at('2026-03-10T10:00:00Z'), end: at('2026-03-10T11:00:00Z') };
const CORRECTION = { start: at('2026-04-15T08:10:00Z'), end: at('2026-04-15T08:20:00Z') };

/** A check every 10 minutes (offset 17 s) for 95 days; degraded now and then. */
const history = (monitorId: number): GenCheck[] =>
  tenMinuteHistory({
    monitorId,
    from: NOW - 95 * DAY + 17_000,
    to: NOW,
    outages: OUTAGES,
    latencyUs: (i) => 100_000 + (i % 50) * 1000,
  });

/** The uptime a brute-force count over the raw checks gives: excluded minutes left out. */
function expected(checks: readonly GenCheck[], range: Span, excluded: Span[]): number | null {
  const minutes = excluded.map((e) => ({
    start: Math.floor(e.start / MIN) * MIN,
    end: Math.ceil(e.end / MIN) * MIN,
  }));
  let n = 0;
  let good = 0;
  for (const c of checks) {
    if (c.at < range.start || c.at >= range.end) continue;
    if (minutes.some((m) => c.at >= m.start && c.at < m.end)) continue;
    n++;
    if (c.outcome !== 'down') good++;
  }
  return n === 0 ? null : Math.round((good / n) * 100_000) / 1000;
}

describe.each(engines)('one availability computation on %s', (engine) => {
  let t: TestApp;
  let monitorId: number;
  let checks: GenCheck[];
  let slug: string;

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    const repos = repositories(t.database);
    monitorId = (
      await repos.monitors.insert(monitorInput({ name: 'Checkout API' }), NOW - 96 * DAY)
    ).id;
    checks = history(monitorId);
    await writeAsTheEngine(repos.results, checks, MAINTENANCE);
    const maint = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      ...json(onceMaintenanceInput(monitorId, MAINTENANCE)),
    });
    expect(maint.statusCode, maint.body).toBe(201);
    const corr = await t.inject({
      method: 'POST',
      url: `/api/v1/monitors/${monitorId}/corrections`,
      ...json({
        startsAt: new Date(CORRECTION.start).toISOString(),
        endsAt: new Date(CORRECTION.end).toISOString(),
        reason: 'False positive: the probe’s DNS failed',
      }),
    });
    expect(corr.statusCode, corr.body).toBe(201);
    slug = `one-computation-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      sections: [{ components: [{ monitorId }] }],
    });
  }, 300_000);
  afterAll(async () => t?.stop());

  const report = async (query: string) => {
    const res = await t.inject({ url: `/api/v1/reports?subject=monitor&id=${monitorId}&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return Report.parse(res.json());
  };

  it('gives the API stats the brute-force figure, the correction left out', async () => {
    const res = await t.inject({ url: `/api/v1/monitors/${monitorId}/stats?window=24h` });
    const stats = MonitorStats.parse(res.json());
    const { from } = windowRange('24h', NOW);
    const want = expected(checks, { start: from, end: NOW + 1 }, [CORRECTION]);
    expect(stats.uptime).toBe(want);
    expect(stats.excludedChecks).toBe(1);
    expect(stats.uptime).toBeLessThan(100);
  });

  it('gives the dashboard the same figure over its 24–25 hours', async () => {
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    const hour = Math.floor(NOW / HOUR) * HOUR;
    const range = { start: hour - 24 * HOUR, end: hour + HOUR };
    const row = list.items.find((m) => m.id === monitorId);
    expect(row?.uptime24h).toBe(expected(checks, range, [CORRECTION]));
    // A report over the same hours agrees (custom ranges are whole days, so compare the day).
    const today = await report('range=custom&from=2026-04-15&to=2026-04-15');
    expect(today.uptime).toBe(
      expected(checks, { start: at('2026-04-15T00:00:00Z'), end: NOW + 1 }, [CORRECTION]),
    );
  });

  it('gives the status page the report’s figure over the bars’ 90 days', async () => {
    const page = await t.inject({ url: `/status/${slug}/index.json` });
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json<{ sections: { components: { uptime: number | null }[] }[] }>();
    const shown = body.sections[0]?.components[0]?.uptime;
    const start = at('2026-04-15T00:00:00Z') - 89 * DAY;
    const from = new Date(start).toISOString().slice(0, 10);
    const r = await report(`range=custom&from=${from}&to=2026-04-15`);
    expect(shown).toBe(r.uptime);
    expect(r.uptime).toBe(expected(checks, { start, end: NOW + 1 }, [MAINTENANCE, CORRECTION]));
  });

  it('leaves maintenance out of March in UTC and counts the outage across midnight', async () => {
    const r = await report('range=month&period=2026-03');
    const march = { start: at('2026-03-01T00:00:00Z'), end: at('2026-04-01T00:00:00Z') };
    expect(r.uptime).toBe(expected(checks, march, [MAINTENANCE]));
    const m = r.monitors[0]!;
    expect(m.periods).toHaveLength(31);
    expect(m.maintenanceMs).toBe(HOUR);
    // The outage across midnight: 30 minutes on each day.
    const d20 = m.periods.find((p) => p.label === '2026-03-20')!;
    const d21 = m.periods.find((p) => p.label === '2026-03-21')!;
    expect(d20.uptime).toBe(
      expected(checks, { start: at('2026-03-20T00:00:00Z'), end: at('2026-03-21T00:00:00Z') }, []),
    );
    expect(d21.uptime).toBe(
      expected(checks, { start: at('2026-03-21T00:00:00Z'), end: at('2026-03-22T00:00:00Z') }, []),
    );
    expect(d20.downtimeMs).toBe(30 * MIN);
    // The maintenance day shows no downtime: its failures were inside the window.
    expect(m.periods.find((p) => p.label === '2026-03-10')?.uptime).toBe(
      expected(checks, { start: at('2026-03-10T00:00:00Z'), end: at('2026-03-11T00:00:00Z') }, [
        MAINTENANCE,
      ]),
    );
    expect(r.incidents).toBe(1);
    expect(r.mttrMs).toBe(HOUR);
  });

  it('cuts months at the zone’s midnight', async () => {
    const r = await report('range=month&period=2026-03&timeZone=Europe%2FBerlin');
    const march = { start: at('2026-02-28T23:00:00Z'), end: at('2026-03-31T22:00:00Z') };
    expect(r.uptime).toBe(expected(checks, march, [MAINTENANCE]));
    // In Berlin the outage falls on 21 March only (00:30–01:30).
    const d21 = r.monitors[0]!.periods.find((p) => p.label === '2026-03-21')!;
    expect(d21.downtimeMs).toBe(HOUR);
    expect(new Date(r.monitors[0]!.periods.at(-1)!.to).toISOString()).toBe(
      '2026-03-31T22:00:00.000Z',
    );
  });

  it('lists the correction in the report it changes, with MTTR counting the rest', async () => {
    const r = await report('range=month&period=2026-04');
    expect(r.corrections).toMatchObject([
      { monitorId, reason: 'False positive: the probe’s DNS failed' },
    ]);
    expect(r.incidentList).toHaveLength(1);
    expect(r.incidentList[0]?.durationMs).toBe(20 * MIN);
    const march = await report('range=month&period=2026-03');
    expect(march.corrections).toEqual([]);
  });

  it('downloads the CSV with its documented columns and the same figures', async () => {
    const res = await t.inject({
      url: `/api/v1/reports/csv?subject=monitor&id=${monitorId}&range=month&period=2026-03`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(csvColumns.join(','));
    expect(lines).toHaveLength(1 + 31 + 1);
    const total = lines.at(-1)!.split(',');
    const r = await report('range=month&period=2026-03');
    expect(total[2]).toBe('total');
    expect(Number(total[5])).toBe(r.uptime);
    expect(Number(total[6])).toBe(Math.round(r.downtimeMs / 1000));
  });

  it('makes a PDF whose text carries the report’s figures', async () => {
    const res = await t.inject({
      url: `/api/v1/reports/pdf?subject=monitor&id=${monitorId}&range=month&period=2026-03`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const dir = mkdtempSync(path.join(tmpdir(), 'pw-report-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      const r = await report('range=month&period=2026-03');
      expect(text).toContain('Checkout API');
      expect(text).toContain(`${r.uptime!.toFixed(3)} %`);
      expect(text).toContain('2026-03-20');
      expect(text).toContain('AVAILABILITY REPORT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
