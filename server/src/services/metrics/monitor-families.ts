import { MonitorStatus, type Phases } from '@pagewatch/contract';
import type { MonitorGaugeRow, UptimeWindow } from '../../db/repositories/monitor-metrics.js';
import type { MonitorCounters } from '../../lib/monitor-counters.js';
import { escapeLabelValue, FamilyText } from '../../lib/prometheus-text.js';

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
export function renderMonitorFamilies(input: MonitorFamiliesInput): string {
  const status = new FamilyText(
    'pagewatch_monitor_status',
    'gauge',
    'Current status of the monitor: 1 on the series of its status, 0 on the others',
  );
  const up = new FamilyText(
    'pagewatch_monitor_up',
    'gauge',
    'Whether the monitor is up (1: up or degraded, 0: down); absent while pending, paused or in maintenance',
  );
  const latency = new FamilyText(
    'pagewatch_monitor_response_time_seconds',
    'gauge',
    'Total time of the last timed check',
  );
  const phases = new FamilyText(
    'pagewatch_monitor_phase_duration_seconds',
    'gauge',
    'Time the last check spent in each phase; a phase that did not happen (TLS on http) is absent',
  );
  const httpStatus = new FamilyText(
    'pagewatch_monitor_http_status_code',
    'gauge',
    'HTTP status code of the last check that got a response',
  );
  const certExpiry = new FamilyText(
    'pagewatch_monitor_certificate_expiry_timestamp_seconds',
    'gauge',
    "Unix time the last check's peer certificate expires (notAfter)",
  );
  const uptime = new FamilyText(
    'pagewatch_monitor_uptime_ratio',
    'gauge',
    'Share of checks up or degraded over the window, from the rollups (refreshed once a minute)',
  );
  const checks = new FamilyText(
    'pagewatch_monitor_checks_total',
    'counter',
    'Checks this process ran for the monitor, by outcome',
  );
  const failures = new FamilyText(
    'pagewatch_monitor_failures_total',
    'counter',
    'Checks this process ran for the monitor that ended down or degraded, by error code (SPEC §8)',
  );
  const omitted = new FamilyText(
    'pagewatch_metrics_monitors_omitted',
    'gauge',
    'Monitors without per-monitor series because of PAGEWATCH_METRICS_MONITOR_LIMIT',
  );

  for (const row of input.rows) {
    const labels = monitorLabels(row);
    const shown = input.statusOf(row);
    for (const s of MonitorStatus.options)
      status.add(`${labels},status="${s}"`, s === shown ? 1 : 0);
    if (shown === 'up' || shown === 'degraded' || shown === 'down')
      up.add(labels, shown === 'down' ? 0 : 1);
    if (row.latencyMs !== null) latency.add(labels, row.latencyMs / 1000);
    for (const phase of phaseNames) {
      const ms = row.phases?.[phase] ?? null;
      if (ms !== null) phases.add(`${labels},phase="${phase}"`, ms / 1000);
    }
    if (row.httpStatus !== null) httpStatus.add(labels, row.httpStatus);
    if (row.certExpiresAt !== null) certExpiry.add(labels, Math.floor(row.certExpiresAt / 1000));
    const ratios = input.uptime.get(row.id);
    for (const [window, ratio] of Object.entries(ratios ?? {}))
      uptime.add(`${labels},window="${window}"`, ratio);
    if (input.counters) {
      const counts = input.counters.of(row.id);
      for (const outcome of outcomes)
        checks.add(`${labels},outcome="${outcome}"`, counts?.checks[outcome] ?? 0);
      for (const [code, n] of counts?.failures ?? []) failures.add(`${labels},code="${code}"`, n);
    }
  }
  omitted.add('', input.omitted);

  const families = [status, up, latency, phases, httpStatus, certExpiry, uptime];
  if (input.counters) families.push(checks, failures);
  families.push(omitted);
  return families.map(String).join('');
}
