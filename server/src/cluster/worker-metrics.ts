import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { IpcLink, IpcReply, WorkerLinks } from '../lib/ipc-bridge.js';
import type { Metrics } from '../lib/metrics.js';
import type { MonitorCounter } from '../lib/monitor-counters.js';

type Families = MetricObjectWithValues<MetricValue<string>>[];

/** A scrape waits this long for its workers; one that does not answer gives its last answer. */
const ASK_TIMEOUT_MS = 2_000;
/**
 * A worker's last answer stands in for it this long (a worker busy past the scrape's wait).
 * Left out instead, its counters vanished from that scrape and came back in the next: a
 * Prometheus counter that drops reads as a reset, and a bench's before/after counted only
 * the primary's checks. A worker that died stops counting once its answer is this old.
 */
const LAST_ANSWER_MS = 60_000;
/** How often a worker hands its per-monitor check counts to the primary. */
const COUNTS_EVERY_MS = 1_000;

/**
 * A scheduler worker's metrics (ADR 25): it has no HTTP port, so its registry goes to the
 * primary when a scrape asks, and the checks it counted per monitor go every second (the
 * primary exports the per-monitor series from its read model). Returns a stop function.
 */
export function reportToPrimary(parent: IpcLink, metrics: Metrics): () => void {
  metrics.monitorCounters.keepDelta();
  parent.onMessage((message) => {
    if (message.pw !== 'metrics-ask') return;
    void metrics.registry
      .getMetricsAsJSON()
      .then((families) => parent.send({ pw: 'metrics', id: message.id, families }));
  });
  const sendCounts = () => {
    const counts = metrics.monitorCounters.takeDelta();
    if (counts.length > 0) parent.send({ pw: 'counts', counts });
  };
  const timer = setInterval(sendCounts, COUNTS_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    sendCounts();
  };
}

/** The primary's side: asks every worker for its registry; counts their checks as they come. */
export function collectFromWorkers(
  links: WorkerLinks,
  metrics: Metrics,
  now: () => number = Date.now,
): void {
  let nextId = 0;
  const waiting = new Map<number, (families: Families, from: IpcReply | undefined) => void>();
  /** Each worker's last answer (its link's reply function stands for the worker). */
  const last = new Map<IpcReply, { families: Families; at: number }>();
  links.onMessage((message, reply?: IpcReply) => {
    if (message.pw === 'metrics') {
      const families = message.families as Families;
      if (reply) last.set(reply, { families, at: now() });
      waiting.get(message.id)?.(families, reply);
    } else if (message.pw === 'counts') {
      for (const [id, outcome, code] of message.counts as MonitorCounter[]) {
        metrics.monitorCounters.record(id, outcome, code);
      }
    }
  });
  metrics.workers = () => {
    const id = ++nextId;
    const expected = links.size;
    if (expected === 0) return Promise.resolve([]);
    return new Promise<Families[]>((resolve) => {
      const got: Families[] = [];
      const answered = new Set<IpcReply>();
      const done = (complete: boolean) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (!complete) {
          // The workers that did not answer in time: their last answer, if recent.
          for (const [from, { families, at }] of last) {
            if (answered.has(from)) continue;
            if (now() - at <= LAST_ANSWER_MS) got.push(families);
            else last.delete(from);
          }
        }
        resolve(got);
      };
      const timer = setTimeout(() => done(false), ASK_TIMEOUT_MS);
      waiting.set(id, (families, from) => {
        got.push(families);
        if (from) answered.add(from);
        if (got.length >= expected) done(true);
      });
      links.send({ pw: 'metrics-ask', id });
    });
  };
}
