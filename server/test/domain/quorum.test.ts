import { describe, expect, it } from 'vitest';
import { applyQuorum } from '../../src/domain/quorum/state.js';
import { decideQuorum, freshForMs, type LocationVerdict } from '../../src/domain/quorum/verdict.js';
import { initialState, type MonitorState } from '../../src/domain/monitor-state.js';

const now = 1_000_000;
const v = (locationId: string, outcome: LocationVerdict['outcome'], ageMs = 0) => ({
  locationId,
  outcome,
  checkedAt: now - ageMs,
});
const decide = (verdicts: LocationVerdict[], k: number | null = null, locations?: string[]) =>
  decideQuorum({
    locations: locations ?? ['local', 'eu', 'us'],
    k,
    verdicts,
    now,
    freshMs: freshForMs(60),
  });

describe('quorum verdict of a round', () => {
  it('is down when at least k fresh verdicts are down', () => {
    const d = decide([v('local', 'down'), v('eu', 'down'), v('us', 'up')], 2);
    expect(d).toMatchObject({ outcome: 'down', failing: ['eu', 'local'], fresh: 3, k: 2 });
  });

  it('is regional when some but fewer than k fail, naming them', () => {
    const d = decide([v('local', 'up'), v('eu', 'down'), v('us', 'up')], 2);
    expect(d).toMatchObject({ outcome: 'regional', failing: ['eu'] });
  });

  it('takes a majority of the locations that reported when k is not set', () => {
    expect(decide([v('eu', 'down'), v('us', 'up'), v('local', 'up')]).k).toBe(2);
    expect(decide([v('eu', 'down'), v('us', 'down'), v('local', 'up')]).outcome).toBe('down');
    // Two reported: both must fail for a DOWN, one is regional.
    expect(decide([v('eu', 'down'), v('us', 'up')]).outcome).toBe('regional');
  });

  it('is unknown when fewer than k fresh verdicts exist, never up', () => {
    const stale = freshForMs(60) + 1;
    const d = decide([v('local', 'up'), v('eu', 'up', stale), v('us', 'up', stale)], 2);
    expect(d).toMatchObject({ outcome: 'unknown', fresh: 1 });
    expect(decide([]).outcome).toBe('unknown');
  });

  it('counts a verdict as fresh for an interval and a grace of half an interval, 10 s to 5 min', () => {
    expect(freshForMs(60)).toBe(90_000);
    expect(freshForMs(5)).toBe(15_000);
    expect(freshForMs(3600)).toBe(3_900_000);
    const edge = decide([v('local', 'up', 90_000)], 1, ['local']);
    expect(edge.outcome).toBe('up');
    expect(decide([v('local', 'up', 90_001)], 1, ['local']).outcome).toBe('unknown');
  });

  it('ignores a location the monitor no longer uses and caps k at its locations', () => {
    const d = decide([v('local', 'up'), v('gone', 'down')], 5, ['local']);
    expect(d).toMatchObject({ outcome: 'up', k: 1, failing: [] });
  });

  it('is degraded when none fail and any fresh verdict is degraded', () => {
    expect(decide([v('local', 'up'), v('eu', 'degraded')]).outcome).toBe('degraded');
  });

  it('with one location is that location’s own outcome', () => {
    for (const o of ['up', 'degraded', 'down'] as const) {
      expect(decide([v('local', o)], null, ['local']).outcome).toBe(o);
    }
  });
});

describe('combined status of a monitor', () => {
  const up: MonitorState = { status: 'up', failures: 0, firstFailure: null };

  it('flips to REGIONAL and back to up', () => {
    const r = applyQuorum(up, 'regional', 0, true);
    expect(r.flip).toEqual({ from: 'up', to: 'regional' });
    const back = applyQuorum(r.next, 'up', 0, true);
    expect(back.flip).toEqual({ from: 'regional', to: 'up' });
  });

  it('confirms DOWN over rounds, a round counted once however many locations report', () => {
    const first = applyQuorum(up, 'down', 1, true);
    expect(first.next).toMatchObject({ status: 'up', failures: 1 });
    const sameRound = applyQuorum(first.next, 'down', 1, false);
    expect(sameRound.next).toMatchObject({ status: 'up', failures: 1 });
    expect(sameRound.flip).toBeNull();
    const second = applyQuorum(sameRound.next, 'down', 1, true);
    expect(second.flip).toEqual({ from: 'up', to: 'down' });
  });

  it('goes DOWN from REGIONAL when the failures reach k, once per round', () => {
    const regional = applyQuorum(up, 'regional', 0, true).next;
    const down = applyQuorum(regional, 'down', 0, false);
    expect(down.flip).toEqual({ from: 'regional', to: 'down' });
    expect(applyQuorum(down.next, 'down', 0, false).flip).toBeNull();
  });

  it('goes UNKNOWN when coverage is lost, and a new monitor is never up without verdicts', () => {
    expect(applyQuorum(up, 'unknown', 0, true).flip).toEqual({ from: 'up', to: 'unknown' });
    expect(applyQuorum(initialState, 'unknown', 0, true).next.status).toBe('unknown');
    const again = applyQuorum({ status: 'unknown', failures: 0 }, 'unknown', 0, true);
    expect(again.flip).toBeNull();
  });
});
