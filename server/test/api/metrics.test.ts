import { gunzipSync } from 'node:zlib';
import { Monitor, MonitorStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCertificates } from '../fixtures/certs.js';
import { refusedPort, startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTlsServer, type TlsServer } from '../fixtures/tls-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import {
  parseExposition,
  pick,
  promtoolCheck,
  valueOf,
  type Sample,
} from '../support/prometheus.js';
import { until } from '../support/until.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

async function scrape(t: TestApp): Promise<{ text: string; samples: Sample[] }> {
  const res = await t.inject({ url: '/metrics', headers: { authorization: '' } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text: res.body, samples: parseExposition(res.body) };
}

async function create(t: TestApp, body: Record<string, unknown>): Promise<Monitor> {
  const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
  expect(res.statusCode, res.body).toBe(201);
  return Monitor.parse(res.json());
}

const of = (m: Monitor) => ({ monitor_id: String(m.id) });

describe.each(engines)('/metrics on %s', (engine) => {
  describe('a fresh app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ engine, scheduler: true });
    });
    afterAll(async () => t.stop());

    it('has every engine-wide counter at 0 for every known label value', async () => {
      const { samples } = await scrape(t);
      for (const outcome of ['up', 'degraded', 'down'])
        expect(valueOf(samples, 'pagewatch_checks_total', { outcome })).toBe(0);
      for (const code of ['connect_refused', 'http_status', 'heartbeat_missed', 'timeout'])
        expect(valueOf(samples, 'pagewatch_check_failures_total', { code })).toBe(0);
      for (const reason of ['overloaded', 'stalled'])
        expect(valueOf(samples, 'pagewatch_checks_discarded_total', { reason })).toBe(0);
      for (const what of ['sent', 'received', 'dropped', 'reconnects'])
        expect(valueOf(samples, 'pagewatch_shared_events_total', { what })).toBe(0);
      for (const name of ['sent', 'failed', 'retried']) {
        const family = `pagewatch_notifications_${name}_total`;
        expect(valueOf(samples, family, { channel: 'webhook', event: 'monitor.down' })).toBe(0);
        expect(valueOf(samples, family, { channel: 'email', event: 'incident.resolved' })).toBe(0);
        expect(valueOf(samples, family, { channel: 'subscriber', event: 'incident' })).toBe(0);
      }
      expect(valueOf(samples, 'pagewatch_metrics_monitors_omitted')).toBe(0);
      expect(pick(samples, 'pagewatch_monitor_status')).toEqual([]);
    });
  });

  describe('with monitors checked against loopback peers', () => {
    let t: TestApp;
    let target: TargetServer;
    let tlsPeer: TlsServer;
    const certs = testCertificates();
    let up: Monitor;
    let down: Monitor;
    let tls: Monitor;
    let paused: Monitor;

    beforeAll(async () => {
      target = await startTargetServer();
      tlsPeer = await startTlsServer(certs.trusted);
      t = await startTestApp({ engine, scheduler: true });
      const common = { interval: 60, timeout: 5, retries: 0 };
      up = await create(t, {
        type: 'http',
        name: 'Shop "EU" \\ main\nÜber ✓',
        url: `${target.url}/ok`,
        ...common,
      });
      down = await create(t, {
        type: 'tcp',
        name: 'Closed port',
        host: '127.0.0.1',
        port: await refusedPort(),
        ...common,
      });
      tls = await create(t, {
        type: 'tls',
        name: 'Certificate',
        host: '127.0.0.1',
        port: tlsPeer.port,
        ignoreTrust: true,
        ...common,
      });
      paused = await create(t, {
        type: 'http',
        name: 'Never checked',
        url: `${target.url}/ok`,
        ...common,
        paused: true,
      });
      // Created monitors are checked at once. The first scrape reads the uptime ratios, which
      // are then kept for a minute: it comes after every first result is written.
      await until('a first check of each monitor', async () => {
        for (const m of [up, down, tls]) {
          const got = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${m.id}` })).json());
          if (got.lastCheck === null) return undefined;
        }
        return true;
      });
    });
    afterAll(async () => {
      await t.stop();
      await target.close();
      await tlsPeer.close();
    });

    it('labels each series with the monitor id, its name (escaped) and its type', async () => {
      const { text, samples } = await scrape(t);
      expect(text).toContain(`monitor_name="Shop \\"EU\\" \\\\ main\\nÜber ✓"`);
      expect(pick(samples, 'pagewatch_monitor_up', of(up))[0]?.labels).toEqual({
        monitor_id: String(up.id),
        monitor_name: 'Shop "EU" \\ main\nÜber ✓',
        monitor_type: 'http',
      });
    });

    it('shows an up http monitor: status, response time, phases, status code, counters', async () => {
      const { samples } = await scrape(t);
      const labels = of(up);
      expect(valueOf(samples, 'pagewatch_monitor_up', labels)).toBe(1);
      const statuses = pick(samples, 'pagewatch_monitor_status', labels);
      expect(statuses.map((s) => [s.labels.status, s.value]).sort()).toEqual([
        ['degraded', 0],
        ['down', 0],
        ['maintenance', 0],
        ['paused', 0],
        ['pending', 0],
        ['regional', 0],
        ['unknown', 0],
        ['up', 1],
      ]);
      expect(valueOf(samples, 'pagewatch_monitor_response_time_seconds', labels)).toBeGreaterThan(
        0,
      );
      const phases = pick(samples, 'pagewatch_monitor_phase_duration_seconds', labels);
      expect(phases.map((s) => s.labels.phase).sort()).toEqual(['connect', 'download', 'ttfb']);
      expect(valueOf(samples, 'pagewatch_monitor_http_status_code', labels)).toBe(200);
      expect(
        valueOf(samples, 'pagewatch_monitor_checks_total', { ...labels, outcome: 'up' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        valueOf(samples, 'pagewatch_monitor_checks_total', { ...labels, outcome: 'down' }),
      ).toBe(0);
      expect(pick(samples, 'pagewatch_monitor_failures_total', labels)).toEqual([]);
      expect(valueOf(samples, 'pagewatch_monitor_uptime_ratio', { ...labels, window: '24h' })).toBe(
        1,
      );
      expect(valueOf(samples, 'pagewatch_monitor_uptime_ratio', { ...labels, window: '30d' })).toBe(
        1,
      );
    });

    it('counts a refused connection as a down check with code connect_refused', async () => {
      const labels = of(down);
      const before = (await scrape(t)).samples;
      expect(valueOf(before, 'pagewatch_monitor_up', labels)).toBe(0);
      expect(valueOf(before, 'pagewatch_monitor_status', { ...labels, status: 'down' })).toBe(1);
      expect(valueOf(before, 'pagewatch_monitor_uptime_ratio', { ...labels, window: '7d' })).toBe(
        0,
      );
      const failures = { ...labels, code: 'connect_refused' };
      const first = valueOf(before, 'pagewatch_monitor_failures_total', failures) ?? 0;
      expect(first).toBeGreaterThanOrEqual(1);
      const res = await t.inject({ method: 'POST', url: `/api/v1/monitors/${down.id}/check-now` });
      expect(res.statusCode, res.body).toBeLessThan(300);
      await until('the second failure counted', async () => {
        const { samples } = await scrape(t);
        const n = valueOf(samples, 'pagewatch_monitor_failures_total', failures) ?? 0;
        return n > first ? n : undefined;
      });
      const after = (await scrape(t)).samples;
      expect(
        valueOf(after, 'pagewatch_check_failures_total', { code: 'connect_refused' }),
      ).toBeGreaterThanOrEqual(2);
      expect(
        valueOf(after, 'pagewatch_monitor_checks_total', { ...labels, outcome: 'down' }),
      ).toBeGreaterThanOrEqual(2);
    });

    it("gives a TLS monitor's certificate expiry as the certificate's notAfter in unix seconds", async () => {
      const { samples } = await scrape(t);
      const labels = { ...of(tls), monitor_type: 'tls' };
      expect(valueOf(samples, 'pagewatch_monitor_up', labels)).toBe(1);
      expect(
        valueOf(samples, 'pagewatch_monitor_certificate_expiry_timestamp_seconds', labels),
      ).toBe(certs.validTo / 1000);
      expect(
        valueOf(samples, 'pagewatch_monitor_certificate_expiry_timestamp_seconds', of(up)),
      ).toBeUndefined();
    });

    it('has counters at 0 for a monitor never checked, and shows it paused', async () => {
      const { samples } = await scrape(t);
      const labels = of(paused);
      for (const outcome of ['up', 'degraded', 'down'])
        expect(valueOf(samples, 'pagewatch_monitor_checks_total', { ...labels, outcome })).toBe(0);
      expect(valueOf(samples, 'pagewatch_monitor_status', { ...labels, status: 'paused' })).toBe(1);
      expect(valueOf(samples, 'pagewatch_monitor_up', labels)).toBeUndefined();
      expect(valueOf(samples, 'pagewatch_monitor_response_time_seconds', labels)).toBeUndefined();
    });

    it('follows a rename on the next scrape, and drops a deleted monitor', async () => {
      const renamed = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${paused.id}`,
        ...json({ type: 'http', name: 'Renamed', url: `${target.url}/ok`, paused: true }),
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      let { samples } = await scrape(t);
      const names = new Set(
        pick(samples, 'pagewatch_monitor_status', of(paused)).map((s) => s.labels.monitor_name),
      );
      expect([...names]).toEqual(['Renamed']);

      const gone = await t.inject({ method: 'DELETE', url: `/api/v1/monitors/${paused.id}` });
      expect(gone.statusCode, gone.body).toBeLessThan(300);
      ({ samples } = await scrape(t));
      expect(samples.filter((s) => s.labels.monitor_id === String(paused.id))).toEqual([]);
      expect(pick(samples, 'pagewatch_monitor_status', of(up))).toHaveLength(
        MonitorStatus.options.length,
      );
    });

    it('answers gzip to a scraper that asks for it, as Prometheus does', async () => {
      const res = await t.inject({
        url: '/metrics',
        headers: { authorization: '', 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(res.rawPayload).toString()).toContain('pagewatch_monitor_status{');
    });

    it("passes promtool's check for every pagewatch_ family", async () => {
      const { text } = await scrape(t);
      const { lines } = await promtoolCheck(text);
      expect(lines.filter((l) => l.includes('pagewatch_'))).toEqual([]);
    });

    it('is checked by a promtool that does find problems in pagewatch_ families', async () => {
      const bad =
        '# HELP pagewatch_bad_count A counter\n# TYPE pagewatch_bad_count counter\npagewatch_bad_count 1\n';
      const { lines } = await promtoolCheck(bad);
      expect(lines.some((l) => l.includes('pagewatch_bad_count'))).toBe(true);
    });
  });

  describe('in a process without the scheduler', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ engine });
    });
    afterAll(async () => t.stop());

    it('shows the monitors from the database but counts no checks of its own', async () => {
      const m = await create(t, { type: 'tcp', name: 'Web only', host: '127.0.0.1', port: 9 });
      const { samples } = await scrape(t);
      expect(valueOf(samples, 'pagewatch_monitor_status', { ...of(m), status: 'pending' })).toBe(1);
      expect(pick(samples, 'pagewatch_monitor_checks_total')).toEqual([]);
    });
  });
});
