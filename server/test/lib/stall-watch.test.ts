import { afterEach, describe, expect, it } from 'vitest';
import { StallWatch } from '../../src/lib/stall-watch.js';
import { systemClock } from '../../src/lib/clock.js';

describe('the stall watch', () => {
  let watch: StallWatch | null = null;
  afterEach(() => watch?.stop());

  it('sees the event loop blocked and says how long within a span', async () => {
    watch = new StallWatch(systemClock, { tickMs: 20, thresholdMs: 100 });
    watch.start();
    await new Promise((r) => setTimeout(r, 60));
    const from = Date.now();
    const until = from + 400;
    while (Date.now() < until) {
      // Busy: the watch's timer cannot fire, exactly like an overloaded process.
    }
    await new Promise((r) => setTimeout(r, 60));
    const to = Date.now();
    expect(watch.count).toBeGreaterThanOrEqual(1);
    expect(watch.stalledWithin(from, to)).toBeGreaterThanOrEqual(300);
    // Nothing was stalled before the busy loop began.
    expect(watch.stalledWithin(from - 1000, from - 500)).toBe(0);
  });

  it('adds up only the overlap of remembered stalls with the span', () => {
    watch = new StallWatch(systemClock, { keep: 2 });
    watch.note(0, 100);
    watch.note(200, 300);
    expect(watch.stalledWithin(50, 250)).toBe(100);
    watch.note(400, 500);
    // The oldest was forgotten.
    expect(watch.stalledWithin(0, 1000)).toBe(200);
  });
});
