import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { InsertedResult } from '../../src/db/repositories/results.js';
import { GroupTriggers } from '../../src/engine/group-triggers.js';

/** Only what the triggers read of a write: its monitor and whether it flipped. */
const written = (...rows: [number, boolean][]) =>
  rows.map(([monitorId, flipped]) => ({
    write: { monitorId, flip: flipped ? { from: 'up', to: 'down' } : null },
  })) as unknown as InsertedResult[];

/**
 * The debounce of ADR 47's addendum: flips noted together give one lookup and one check per
 * group; results that did not flip ask for nothing; one group's failure spares the others.
 */
describe('group triggers', () => {
  function setUp(groupsOf: Record<number, number[]>, failing: number[] = []) {
    const lookups: number[][] = [];
    const asked: number[] = [];
    const triggers = new GroupTriggers({
      referencing: async (ids) => {
        lookups.push([...ids].sort((a, b) => a - b));
        return [...new Set(ids.flatMap((id) => groupsOf[id] ?? []))];
      },
      runNow: async (id) => {
        asked.push(id);
        if (failing.includes(id)) throw new Error('paused meanwhile');
      },
      logger: pino({ level: 'silent' }),
      debounceMs: 10,
    });
    return { triggers, lookups, asked };
  }

  it('gathers flips noted together into one lookup and asks each group once', async () => {
    const { triggers, lookups, asked } = setUp({ 1: [100], 2: [100, 200], 3: [200] }, [100]);
    triggers.noteWritten(written([1, true], [4, false]));
    triggers.noteWritten(written([2, true], [3, true]));
    await expect.poll(() => asked.length).toBe(2);
    expect(lookups).toEqual([[1, 2, 3]]);
    expect(asked.sort()).toEqual([100, 200]);
    await triggers.stop();
  });

  it('asks nothing for results that did not flip, nor after it stopped', async () => {
    const { triggers, lookups, asked } = setUp({ 1: [100] });
    triggers.noteWritten(written([1, false]));
    await triggers.stop();
    triggers.noteWritten(written([1, true]));
    await triggers.stop();
    expect(lookups).toEqual([]);
    expect(asked).toEqual([]);
  });
});
