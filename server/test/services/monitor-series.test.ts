import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { MonitorCounters } from '../../src/lib/monitor-counters.js';
import { MonitorSeries } from '../../src/services/metrics/monitor-series.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

describe.each(engines)('per-monitor series on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  it('applies a status change that arrives while the monitors are being read, once, and finishes', async () => {
    const repos = repositories(t.database);
    const m = await repos.monitors.insert(monitorInput({ name: 'Racing' }), Date.now());
    // The real read, with a flip published while it is under way (as a check finishing does).
    const gauges = repos.monitorMetrics.gauges.bind(repos.monitorMetrics);
    const during = {
      ...repos,
      monitorMetrics: {
        ...repos.monitorMetrics,
        gauges: async () => {
          const rows = await gauges();
          t.hub.publish({
            kind: 'status',
            monitorId: m.id,
            from: 'pending',
            to: 'down',
            at: new Date().toISOString(),
            errorCode: 'connect_refused',
            message: null,
          });
          return rows;
        },
      },
    };
    const series = new MonitorSeries(
      { repos: during, hub: t.hub, clock: { now: () => Date.now() }, maintenance: null },
      { counters: new MonitorCounters(), limit: 1000 },
    );
    try {
      const text = (await series.exposition()).toString();
      expect(text).toContain(
        `pagewatch_monitor_status{monitor_id="${m.id}",monitor_name="Racing",monitor_type="http",status="down"} 1`,
      );
    } finally {
      series.close();
    }
  });
});
