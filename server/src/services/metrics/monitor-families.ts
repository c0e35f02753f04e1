import { MonitorStatus, type Phases } from '@pagewatch/contract';
import type { MonitorGaugeRow, UptimeWindow } from '../../db/repositories/monitor-metrics.js';
import type { MonitorCounters } from '../../lib/monitor-counters.js';
import { escapeLabelValue, ExpositionWriter } from '../../lib/prometheus-text.js';

export interface MonitorFamiliesInput {
  /** The monitors with series, lowest id first, already cut to the limit. */
  rows: readonly MonitorGaugeRow[];
  /** The status people see (paused and maintenance over the tracked one). */
  statusOf(row: MonitorGaugeRow): MonitorStatus;
  /** Uptime ratio (0–1) per monitor and window; a window without checks is absent. */
  uptime: ReadonlyMap<number, Partial<Record<UptimeWindow, number>>>;
  /** This process's check counts; null where it runs no checks (no counter series). */
  counters: MonitorCounters | null;
  /** Monitors left out by the limit. */
  omitted: number;
}

const phaseNames = [
  'dns',
  'connect',
  'tls',
  'ttfb',
  'download',
] as const satisfies readonly (keyof Phases)[];
const outcomes = ['up', 'degraded', 'down'] as const;

/** The `monitor_id`, `monitor_name`, `monitor_type` labels, rendered once per monitor. */
function monitorLabels(row: MonitorGaugeRow): string {
  return `monitor_id="${row.id}",monitor_name="${escapeLabelValue(row.name)}",monitor_type="${row.type}"`;
}

/** The per-monitor families as text exposition; see docs/metrics.md for each one's meaning. */
export function renderMonitorFamilies(input: MonitorFamiliesInput): Buffer {
  const { rows, counters } = input;
  const labels = rows.map(monitorLabels);
  const shown = rows.map((row) => input.statusOf(row));
  const out = new ExpositionWriter();
  // One pass over the monitors per family: each family's samples must be contiguous.
  const each = (write: (row: MonitorGaugeRow, labels: string, i: number) => void) => {
    for (let i = 0; i < rows.length; i += 1) write(rows[i]!, labels[i]!, i);
  };

  out.family(
    'pagewatch_monitor_status',
    'gauge',
    'Current status of the monitor: 1 on the series of its status, 0 on the others',
  );
  each((_, l, i) => {
    for (const s of MonitorStatus.options) out.sample(`${l},status="${s}"`, s === shown[i] ? 1 : 0);
  });
  out.family(
    'pagewatch_monitor_up',
    'gauge',
    'Whether the monitor is up (1: up or degraded, 0: down); absent while pending, paused or in maintenance',
  );
  each((_, l, i) => {
    const s = shown[i];
    if (s === 'up' || s === 'degraded' || s === 'down') out.sample(l, s === 'down' ? 0 : 1);
  });
  out.family(
    'pagewatch_monitor_response_time_seconds',
    'gauge',
    'Total time of the last timed check',
  );
  each((row, l) => {
    if (row.latencyMs !== null) out.sample(l, row.latencyMs / 1000);
  });
  out.family(
    'pagewatch_monitor_phase_duration_seconds',
    'gauge',
    'Time the last check spent in each phase; a phase that did not happen (TLS on http) is absent',
  );
  each((row, l) => {
    for (const phase of phaseNames) {
      const ms = row.phases?.[phase] ?? null;
      if (ms !== null) out.sample(`${l},phase="${phase}"`, ms / 1000);
    }
  });
  out.family(
    'pagewatch_monitor_http_status_code',
    'gauge',
    'HTTP status code of the last check that got a response',
  );
  each((row, l) => {
    if (row.httpStatus !== null) out.sample(l, row.httpStatus);
  });
  out.family(
    'pagewatch_monitor_certificate_expiry_timestamp_seconds',
    'gauge',
    "Unix time the last check's peer certificate expires (notAfter)",
  );
  each((row, l) => {
    if (row.certExpiresAt !== null) out.sample(l, Math.floor(row.certExpiresAt / 1000));
  });
  out.family(
    'pagewatch_monitor_uptime_ratio',
    'gauge',
    'Share of checks up or degraded over the window, from the rollups (refreshed once a minute)',
  );
  each((row, l) => {
    for (const [window, ratio] of Object.entries(input.uptime.get(row.id) ?? {}))
      out.sample(`${l},window="${window}"`, ratio);
  });
  if (counters) {
    out.family(
      'pagewatch_monitor_checks_total',
      'counter',
      'Checks this process ran for the monitor, by outcome',
    );
    each((row, l) => {
      const counts = counters.of(row.id);
      for (const outcome of outcomes)
        out.sample(`${l},outcome="${outcome}"`, counts?.checks[outcome] ?? 0);
    });
    out.family(
      'pagewatch_monitor_failures_total',
      'counter',
      'Checks this process ran for the monitor that ended down or degraded, by error code (SPEC §8)',
    );
    each((row, l) => {
      for (const [code, n] of counters.of(row.id)?.failures ?? [])
        out.sample(`${l},code="${code}"`, n);
    });
  }
  out.family(
    'pagewatch_metrics_monitors_omitted',
    'gauge',
    'Monitors without per-monitor series because of PAGEWATCH_METRICS_MONITOR_LIMIT',
  );
  out.sample('', input.omitted);
  return out.toBuffer();
}
