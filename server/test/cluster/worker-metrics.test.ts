import { EventEmitter } from 'node:events';
import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectFromWorkers, reportToPrimary } from '../../src/cluster/worker-metrics.js';
import { WorkerLinks, type IpcLink, type IpcMessage } from '../../src/lib/ipc-bridge.js';
import { createMetrics } from '../../src/lib/metrics.js';

/**
 * One worker's side wired to the primary's WorkerLinks in this process: the code of both sides
 * is the real one, only the channel is an in-memory pair. `paused` holds the worker's answers
 * back, as a worker whose event loop is blocked past the scrape's wait.
 */
function workerPair(links: WorkerLinks) {
  const child = Object.assign(new EventEmitter(), {
    connected: true,
    paused: false,
    held: [] as IpcMessage[],
    send(message: unknown, callback: (err: Error | null) => void): boolean {
      const copy = structuredClone(message);
      setImmediate(() => parent.emit('message', copy));
      callback(null);
      return true;
    },
  });
  const parent = new EventEmitter();
  const link: IpcLink = {
    // Copied as the IPC channel serialises: the registry's JSON holds its live values.
    send: (message) => {
      const copy = structuredClone(message);
      if (child.paused) child.held.push(copy);
      else setImmediate(() => child.emit('message', copy));
    },
    onMessage: (listener) => parent.on('message', (m: IpcMessage) => listener(m)),
  };
  links.add(child);
  const metrics = createMetrics();
  const stop = reportToPrimary(link, metrics);
  return {
    metrics,
    stop,
    pause: () => (child.paused = true),
    resume: () => {
      child.paused = false;
      for (const m of child.held.splice(0)) setImmediate(() => child.emit('message', m));
    },
  };
}

/** pagewatch_checks_total{outcome="up"} as the primary's /metrics would show it. */
async function scrapeUp(primary: ReturnType<typeof createMetrics>): Promise<number> {
  const text = await client.AggregatorRegistry.aggregate([
    await primary.registry.getMetricsAsJSON(),
    ...(await primary.workers!()),
  ]).metrics();
  const line = text.split('\n').find((l) => l.startsWith('pagewatch_checks_total{outcome="up"}'));
  return Number(line?.split(' ').pop());
}

describe("the primary's /metrics with a scheduler worker (ADR 25)", () => {
  it("adds a worker's counters, and its last answer while it is too busy to answer", async () => {
    const links = new WorkerLinks();
    const primary = createMetrics();
    let clock = 1_000_000;
    collectFromWorkers(links, primary, () => clock);
    const worker = workerPair(links);
    try {
      primary.checks.inc({ outcome: 'up' }, 2);
      worker.metrics.checks.inc({ outcome: 'up' }, 40);
      expect(await scrapeUp(primary)).toBe(42);

      // The worker is busy past the scrape's wait: its counters must not drop out of the sum
      // (a counter that goes down reads as a reset).
      worker.metrics.checks.inc({ outcome: 'up' }, 5);
      worker.pause();
      expect(await scrapeUp(primary)).toBe(42);
      worker.resume();
      expect(await scrapeUp(primary)).toBe(47);

      // A worker silent for longer than a minute (it died) is no longer counted.
      worker.pause();
      clock += 61_000;
      expect(await scrapeUp(primary)).toBe(2);
    } finally {
      worker.stop();
    }
  }, 20_000);
});
