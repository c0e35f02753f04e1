import {
  alertEventKinds,
  channelKinds,
  CheckErrorCode,
  CheckOutcome,
  SubscriberNotice,
} from '@pagewatch/contract';
import client from 'prom-client';
import { clusterMetrics } from './cluster-metrics.js';
import { MonitorCounters } from './monitor-counters.js';

/** The process's Prometheus registry and the engine's own instruments. */
/** Read when /metrics is scraped; the engine points them at its live counts. */
export interface Probes {
  scheduled(): number;
  inFlight(): number;
  writeQueue(): number;
  /** Deliveries not yet sent (queued or retrying) as the notifier last saw them. */
  pendingDeliveries(): number;
}

export function createMetrics() {
  const registry = new client.Registry();
  const probes: Probes = {
    scheduled: () => 0,
    inFlight: () => 0,
    writeQueue: () => 0,
    pendingDeliveries: () => 0,
  };
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const lateness = new client.Histogram({
    name: 'pagewatch_check_start_lateness_seconds',
    help: 'How long after its due time a check started',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const latenessSummary = new client.Summary({
    name: 'pagewatch_check_start_lateness_recent_seconds',
    help: 'Start lateness quantiles over the last 10 minutes',
    percentiles: [0.5, 0.9, 0.99, 0.999],
    maxAgeSeconds: 600,
    ageBuckets: 5,
    registers: [registry],
    // Quantiles do not add up: with scheduler workers (ADR 25) /metrics shows the worst one's.
    aggregator: 'max',
  });
  const checks = new client.Counter({
    name: 'pagewatch_checks_total',
    help: 'Checks completed, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const checkFailures = new client.Counter({
    name: 'pagewatch_check_failures_total',
    help: 'Checks that ended down or degraded, by error code (SPEC §8)',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const discarded = new client.Counter({
    name: 'pagewatch_checks_discarded_total',
    help: 'Check results not counted because Pagewatch itself was overloaded, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const writesDropped = new client.Counter({
    name: 'pagewatch_result_writes_dropped_total',
    help: 'Check results dropped because the write queue was full (the database is too slow)',
    registers: [registry],
  });
  const duplicatesDropped = new client.Counter({
    name: 'pagewatch_results_duplicate_dropped_total',
    help: 'Check results not written because their round was already recorded (by another process)',
    registers: [registry],
  });
  new client.Gauge({
    name: 'pagewatch_monitors_scheduled',
    help: 'Monitors the scheduler is running',
    registers: [registry],
    collect() {
      this.set(probes.scheduled());
    },
  });
  new client.Gauge({
    name: 'pagewatch_checks_in_flight',
    help: 'Checks running right now',
    registers: [registry],
    collect() {
      this.set(probes.inFlight());
    },
  });
  new client.Gauge({
    name: 'pagewatch_result_write_queue',
    help: 'Check results waiting to be written',
    registers: [registry],
    collect() {
      this.set(probes.writeQueue());
    },
  });
  const sharedEvents = new client.Counter({
    name: 'pagewatch_shared_events_total',
    help: 'Live events shared with other processes on the same PostgreSQL database: sent, received, dropped (too big), reconnects of the listening connection',
    labelNames: ['what'] as const,
    registers: [registry],
  });
  // Every known label value exists at 0, so rate() and increase() see the first event.
  for (const outcome of CheckOutcome.options) checks.inc({ outcome }, 0);
  for (const code of CheckErrorCode.options) checkFailures.inc({ code }, 0);
  for (const reason of ['overloaded', 'stalled'] as const) discarded.inc({ reason }, 0);
  for (const what of ['sent', 'received', 'dropped', 'reconnects'] as const)
    sharedEvents.inc({ what }, 0);
  return {
    registry,
    /** Families rendered apart from the registry (per-monitor series), appended to /metrics. */
    sources: [] as (() => Promise<Buffer>)[],
    /**
     * The primary's scheduler workers' registries (ADR 25), added to its own on /metrics;
     * null in a process without workers.
     */
    workers: null as
      null | (() => Promise<client.MetricObjectWithValues<client.MetricValue<string>>[][]>),
    monitorCounters: new MonitorCounters(),
    checkFailures,
    lateness,
    sharedEvents,
    latenessSummary,
    checks,
    discarded,
    writesDropped,
    duplicatesDropped,
    probes,
    /** Membership and leases (ADR 21); compose points the probes at the member. */
    cluster: clusterMetrics(registry),
    ...notificationMetrics(registry, probes),
  };
}

function notificationMetrics(registry: client.Registry, probes: Probes) {
  const labelNames = ['channel', 'event'] as const;
  const known = [
    ...channelKinds.flatMap((channel) => alertEventKinds.map((event) => ({ channel, event }))),
    ...SubscriberNotice.shape.kind.options.map((event) => ({ channel: 'subscriber', event })),
  ];
  const counter = (name: string, help: string) => {
    const c = new client.Counter({ name, help, labelNames, registers: [registry] });
    for (const labels of known) c.inc(labels, 0);
    return c;
  };
  new client.Gauge({
    name: 'pagewatch_notifications_pending',
    help: 'Deliveries queued or waiting for a retry',
    registers: [registry],
    collect() {
      this.set(probes.pendingDeliveries());
    },
  });
  return {
    notificationsSent: counter(
      'pagewatch_notifications_sent_total',
      'Deliveries sent, by channel kind and event kind',
    ),
    notificationsFailed: counter(
      'pagewatch_notifications_failed_total',
      'Deliveries given up on (permanent error or attempts used up), by channel and event kind',
    ),
    notificationsRetried: counter(
      'pagewatch_notifications_retried_total',
      'Delivery attempts that failed and will be retried, by channel and event kind',
    ),
    notificationDelay: new client.Histogram({
      name: 'pagewatch_notification_delay_seconds',
      help: 'From the alert being queued to its successful delivery',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200],
      registers: [registry],
    }),
    // The one window left for a duplicate alert (ADR 22): sent, then a crash before this commit.
    notificationUnrecorded: new client.Histogram({
      name: 'pagewatch_notification_unrecorded_seconds',
      help: "From a channel's answer to the commit that records the delivery as sent: a crash inside it sends the alert once more",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
