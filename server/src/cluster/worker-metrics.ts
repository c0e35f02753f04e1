import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { IpcLink, IpcReply, WorkerLinks } from '../lib/ipc-bridge.js';
import type { Metrics } from '../lib/metrics.js';
import type { MonitorCounter } from '../lib/monitor-counters.js';

type Families = MetricObjectWithValues<MetricValue<string>>[];

/** A scrape waits this long for its workers; one that does not answer is left out of it. */
const ASK_TIMEOUT_MS = 2_000;
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
export function collectFromWorkers(links: WorkerLinks, metrics: Metrics): void {
  let nextId = 0;
  const waiting = new Map<number, (families: Families) => void>();
  links.onMessage((message, _reply?: IpcReply) => {
    if (message.pw === 'metrics') waiting.get(message.id)?.(message.families as Families);
    else if (message.pw === 'counts') {
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
      const done = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(got);
      };
      const timer = setTimeout(done, ASK_TIMEOUT_MS);
      waiting.set(id, (families) => {
        got.push(families);
        if (got.length >= expected) done();
      });
      links.send({ pw: 'metrics-ask', id });
    });
  };
}
