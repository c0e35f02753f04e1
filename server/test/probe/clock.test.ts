import { describe, expect, it } from 'vitest';
import { ProbeClock } from '../../src/probe/clock.js';

/**
 * The probe's estimate of the server's clock. Times here are plain numbers: the probe's clock
 * runs 2 s ahead of the server's (offset +2,000 ms) unless a case says otherwise.
 */
describe('ProbeClock', () => {
  const OFFSET = 2_000;
  /** An answer the server wrote at `server` ms, sent `rtt` ms before it was read here. */
  const answer = (clock: ProbeClock, server: number, rtt: number) =>
    clock.observe(server, server + OFFSET - rtt / 2, server + OFFSET + rtt / 2);

  it('takes its first estimate from the stream hello', () => {
    const clock = new ProbeClock();
    clock.observeLine(1_000_000, 1_000_000 + OFFSET + 3);
    expect(clock.offsetMs()).toBe(OFFSET + 3);
  });

  it('keeps its estimate when a frozen probe reads lines written while it was stopped', () => {
    const clock = new ProbeClock();
    answer(clock, 1_000_000, 4);
    expect(clock.offsetMs()).toBe(OFFSET);
    // Frozen for 120 s: the pings of those two minutes wait in the socket and are read at once
    // on waking. Each was written long before it was read; none says the clock moved.
    const woke = 1_000_000 + OFFSET + 120_000;
    for (let s = 1_005_000; s <= 1_120_000; s += 5_000) clock.observeLine(s, woke);
    expect(clock.offsetMs()).toBe(OFFSET);
  });

  it('lowers an estimate a line proves too high', () => {
    const clock = new ProbeClock();
    answer(clock, 1_000_000, 4);
    // This machine's clock was stepped back 1.5 s: a line read as soon as it was written
    // shows the estimate can no longer be right.
    clock.observeLine(1_010_000, 1_010_000 + OFFSET - 1_500);
    expect(clock.offsetMs()).toBe(OFFSET - 1_500);
  });

  it('follows a clock stepped ahead at the next answer, not at a late line', () => {
    const clock = new ProbeClock();
    answer(clock, 1_000_000, 4);
    clock.observeLine(1_010_000, 1_010_000 + OFFSET + 30_000);
    expect(clock.offsetMs()).toBe(OFFSET);
    clock.observe(1_015_000, 1_015_000 + OFFSET + 30_000 - 2, 1_015_000 + OFFSET + 30_000 + 2);
    expect(clock.offsetMs()).toBe(OFFSET + 30_000);
  });

  it('ignores an answer whose request spanned a freeze', () => {
    const clock = new ProbeClock();
    answer(clock, 1_000_000, 4);
    // Sent just before a 60 s freeze, answered at once, read on waking: the midpoint is 30 s off.
    clock.observe(1_010_000, 1_010_000 + OFFSET, 1_010_000 + OFFSET + 60_000);
    expect(clock.offsetMs()).toBe(OFFSET);
  });
});
