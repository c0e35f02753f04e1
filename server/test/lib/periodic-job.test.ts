import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodicJob } from '../../src/lib/periodic-job.js';

/** A pass that stays running until the test lets it end. */
function gatedPass() {
  const started: number[] = [];
  let release: (() => void) | null = null;
  const pass = vi.fn(async (stopped: () => boolean) => {
    started.push(Date.now());
    await new Promise<void>((r) => (release = r));
    return void stopped;
  });
  return { pass, started, end: () => release?.() };
}

describe('a periodic job', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('runs its first pass at once with firstMs 0, after firstMs otherwise, then on the interval', async () => {
    const atOnce = vi.fn(async () => undefined);
    const a = periodicJob(atOnce, { firstMs: 0, everyMs: 1000, onError: () => undefined });
    expect(atOnce).toHaveBeenCalledTimes(1);
    const later = vi.fn(async () => undefined);
    const b = periodicJob(later, { firstMs: 300, everyMs: 1000, onError: () => undefined });
    const onInterval = vi.fn(async () => undefined);
    const c = periodicJob(onInterval, { everyMs: 1000, onError: () => undefined });
    expect(later).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(300);
    expect(later).toHaveBeenCalledTimes(1);
    expect(onInterval).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(700);
    expect([atOnce, later, onInterval].map((f) => f.mock.calls.length)).toEqual([2, 2, 1]);
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });

  it('never runs two passes at once: a tick meanwhile joins the running one', async () => {
    const g = gatedPass();
    const job = periodicJob(g.pass, { firstMs: 0, everyMs: 100, onError: () => undefined });
    let joined = false;
    const tick = job.tick().then(() => (joined = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(g.pass).toHaveBeenCalledTimes(1);
    expect(joined).toBe(false);
    g.end();
    await tick;
    expect(joined).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(g.pass).toHaveBeenCalledTimes(2);
    g.end();
    await job.stop();
  });

  it('stops: waits for the pass in progress, tells it it is stopped, and runs no more', async () => {
    const g = gatedPass();
    const job = periodicJob(g.pass, { firstMs: 0, everyMs: 100, onError: () => undefined });
    const seen = g.pass.mock.calls[0]![0];
    expect(seen()).toBe(false);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    expect(seen()).toBe(true);
    await vi.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    g.end();
    await stopping;
    await vi.advanceTimersByTimeAsync(1000);
    await job.tick();
    expect(g.pass).toHaveBeenCalledTimes(1);
  });

  it('hands a failed pass to onError and runs the next one as usual', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const job = periodicJob(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database away');
      },
      { firstMs: 0, everyMs: 100, onError: (err) => errors.push(err) },
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('database away')]);
    await job.stop();
  });
});
