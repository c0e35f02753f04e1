import { Report } from '@pagewatch/contract';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { csvColumns } from '../../src/reports/csv.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { toWrite, type GenCheck } from '../support/history.js';
import { json } from '../support/status-page-api.js';

const MIN = 60_000;
const NOW = Date.parse('2026-04-15T10:30:00Z');
const MARCH = {
  start: Date.parse('2026-03-01T00:00:00Z'),
  end: Date.parse('2026-04-01T00:00:00Z'),
};

/** A check every 10 minutes through March: the first `down` checks failed, latency 100–149 ms. */
function march(monitorId: number, down: number): GenCheck[] {
  const out: GenCheck[] = [];
  let i = 0;
  for (let t = MARCH.start + 17_000; t < MARCH.end; t += 10 * MIN, i++) {
    const failed = i < down;
    out.push({
      monitorId,
      at: t,
      outcome: failed ? 'down' : 'up',
      latencyUs: failed ? null : 100_000 + (i % 50) * 1000,
      phasesUs: { dns: null, connect: null, tls: null, ttfb: null, download: null },
    });
  }
  return out;
}

/** Issue 20 item 3: "SLO met or missed" in the report's JSON, CSV and PDF. */
describe.each(engines)('SLOs in reports on %s', (engine) => {
  let t: TestApp;
  let shop: number;
  let blog: number;
  const checks = (31 * 24 * 60) / 10; // 4,464 checks in March

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    const repos = repositories(t.database);
    shop = (await repos.monitors.insert(monitorInput({ name: 'Shop', tags: ['web'] }), 0)).id;
    blog = (await repos.monitors.insert(monitorInput({ name: 'Blog', tags: ['web'] }), 0)).id;
    // Shop: 9 failed checks of 4,464 (99.798 %); Blog: none failed; both: 99.899 %.
    const writes = [...march(shop, 9), ...march(blog, 0)].map(toWrite);
    for (let i = 0; i < writes.length; i += 500)
      await repos.results.writeBatch(writes.slice(i, i + 500));
    const slo = async (body: object) => {
      const res = await t.inject({ method: 'POST', url: '/api/v1/slos', ...json(body) });
      expect(res.statusCode, res.body).toBe(201);
    };
    await slo({ name: 'Shop 99.5', subject: { kind: 'monitor', monitorId: shop }, target: 99.5 });
    await slo({
      name: 'Shop three nines',
      subject: { kind: 'monitor', monitorId: shop },
      target: 99.9,
      window: 'month',
    });
    await slo({
      name: 'Shop fast',
      subject: { kind: 'monitor', monitorId: shop },
      target: 99,
      latency: { percent: 95, thresholdMs: 120 },
    });
    await slo({ name: 'Blog', subject: { kind: 'monitor', monitorId: blog }, target: 99.9 });
    await slo({ name: 'Web tag', subject: { kind: 'tag', tag: 'web' }, target: 99.8 });
  }, 300_000);
  afterAll(async () => t?.stop());

  const report = async (query: string) => {
    const res = await t.inject({ url: `/api/v1/reports?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return Report.parse(res.json());
  };

  it('states each SLO of the monitor met or missed over the range', async () => {
    const r = await report(`subject=monitor&id=${shop}&range=month&period=2026-03`);
    const attained = Math.round(((checks - 9) / checks) * 100_000) / 1000;
    expect(r.slos.map((s) => [s.name, s.attainment, s.met])).toEqual([
      ['Shop 99.5', attained, true],
      ['Shop fast', attained, false],
      ['Shop three nines', attained, false],
    ]);
    const fast = r.slos.find((s) => s.name === 'Shop fast')!;
    // p95 of 100..149 ms is about 147 ms: over the 120 ms objective, so missed though 99 % held.
    expect(fast.latency?.met).toBe(false);
    expect(fast.latency?.observedMs).toBeGreaterThan(120);
    expect(r.slos[0]).toMatchObject({ subjectLabel: 'Shop', checks, badChecks: 9 });
  });

  it('leaves out an SLO whose monitors are not all in the report', async () => {
    const blogOnly = await report(`subject=monitor&id=${blog}&range=month&period=2026-03`);
    expect(blogOnly.slos.map((s) => [s.name, s.met])).toEqual([['Blog', true]]);
    const tag = await report('subject=tag&id=web&range=month&period=2026-03');
    const tagSlo = tag.slos.find((s) => s.name === 'Web tag')!;
    expect(tagSlo).toMatchObject({ checks: 2 * checks, badChecks: 9, met: true });
    expect(tag.slos).toHaveLength(5);
  });

  it('has no data for a range without checks', async () => {
    const r = await report(`subject=monitor&id=${shop}&range=month&period=2026-01`);
    expect(r.slos.every((s) => s.met === null && s.attainment === null)).toBe(true);
  });

  it('adds a row per SLO to the CSV with its result in slo_met', async () => {
    const res = await t.inject({
      url: `/api/v1/reports/csv?subject=monitor&id=${shop}&range=month&period=2026-03`,
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(csvColumns.join(','));
    expect(csvColumns.slice(-2)).toEqual(['slo', 'slo_met']);
    expect(lines).toHaveLength(1 + 31 + 1 + 3);
    const rows = lines.slice(-3).map((l) => l.split(','));
    expect(rows.map((c) => [c[2], c[15], c.at(-1)])).toEqual([
      ['slo', 'Shop 99.5 (target 99.5 %)', 'met'],
      ['slo', 'Shop fast (target 99 %; 95 % under 120 ms)', 'missed'],
      ['slo', 'Shop three nines (target 99.9 %)', 'missed'],
    ]);
    expect(rows[0]!.length).toBe(csvColumns.length);
    // A monitor's rows carry no SLO cells.
    expect(lines[1]!.endsWith(',,')).toBe(true);
  });

  it('prints a line per SLO with Met or Missed in the PDF', async () => {
    const res = await t.inject({
      url: `/api/v1/reports/pdf?subject=monitor&id=${shop}&range=month&period=2026-03`,
    });
    expect(res.statusCode).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'pw-report-slo-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('Service level objectives');
      const line = (name: string) => text.split('\n').find((l) => l.includes(name)) ?? '';
      expect(line('Shop 99.5')).toMatch(/99\.5 %.*99\.798 %.*Met/);
      expect(line('Shop three nines')).toMatch(/99\.9 %.*99\.798 %.*Missed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
