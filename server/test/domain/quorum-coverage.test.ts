import { describe, expect, it } from 'vitest';
import {
  coverageLost,
  coverageMessage,
  summariseCoverage,
  type CoverageSubject,
} from '../../src/domain/quorum/coverage.js';
import type { LocationVerdict } from '../../src/domain/quorum/verdict.js';
import { dueOf, roundAt } from '../../src/domain/schedule.js';

const I = 60_000;
const ID = 7;
/** A fake clock: round `r`'s due time plus `plus` ms. */
const at = (r: number, plus = 0) => dueOf(ID, I, r) + plus;
const R = 30_000_000;

function subject(over: Partial<CoverageSubject> = {}): CoverageSubject {
  return {
    id: ID,
    interval: 60,
    locations: ['eu', 'us'],
    quorum: null,
    status: 'up',
    paused: false,
    lastRoundDue: at(R),
    ...over,
  };
}
const v = (locationId: string, checkedAt: number): LocationVerdict => ({
  locationId,
  outcome: 'down',
  checkedAt,
});

describe('the coverage sweep rule', () => {
  it('leaves a monitor whose locations report (even down) to their decisions', () => {
    const now = at(R + 1, 5_000);
    expect(coverageLost(subject(), [v('eu', at(R, 500)), v('us', at(R, 800))], now)).toBeNull();
  });

  it('waits for the grace of half an interval before calling the silence', () => {
    const verdicts = [v('eu', at(R, 500)), v('us', at(R, 800))];
    // Round R+1 is running, R's verdicts are 1 min 20 s old: within interval + 30 s.
    expect(coverageLost(subject(), verdicts, at(R + 1, 20_000))).toBeNull();
    const loss = coverageLost(subject(), verdicts, at(R + 1, 31_000));
    expect(loss).toEqual({
      round: R + 1,
      roundDue: at(R + 1),
      missing: ['eu', 'us'],
      fresh: 0,
      k: 1,
    });
    // Down verdicts that went stale are not evidence of an outage: UNKNOWN, never DOWN.
    expect(roundAt(ID, I, at(R + 1, 31_000))).toBe(loss!.round);
  });

  it('with k of 2, one silent location of two is enough, and it is named', () => {
    const now = at(R + 1, 45_000);
    const loss = coverageLost(subject({ quorum: 2 }), [v('eu', at(R + 1, 400)), v('us', 0)], now);
    expect(loss).toMatchObject({ missing: ['us'], fresh: 1, k: 2 });
  });

  it('never overrides a decision of the round running', () => {
    const now = at(R + 1, 45_000);
    expect(coverageLost(subject({ lastRoundDue: at(R + 1) }), [], now)).toBeNull();
  });

  it('leaves paused, never-decided and already-unknown monitors alone', () => {
    const now = at(R + 5);
    expect(coverageLost(subject({ paused: true }), [], now)).toBeNull();
    expect(coverageLost(subject({ lastRoundDue: null }), [], now)).toBeNull();
    expect(coverageLost(subject({ status: 'unknown' }), [], now)).toBeNull();
    expect(coverageLost(subject({ status: 'down' }), [], now)).not.toBeNull();
  });

  it('says where the results stopped coming from', () => {
    expect(coverageMessage(['EU West', 'US East'], 0, 1)).toBe(
      'Status unknown: no recent result from EU West, US East (0 of the 1 needed)',
    );
  });
});

describe('the coverage notice', () => {
  it('is one summary: how many monitors, which locations, since when', () => {
    const names: Record<string, string> = { eu: 'EU West', us: 'US East' };
    const s = summariseCoverage(
      [
        { missing: ['us'], since: 3000 },
        { missing: ['eu', 'us'], since: 2000 },
        { missing: [], since: 1000 },
      ],
      (id) => names[id] ?? id,
    );
    expect(s).toEqual({
      monitors: 2,
      since: 2000,
      locations: [
        { id: 'eu', name: 'EU West', monitors: 1 },
        { id: 'us', name: 'US East', monitors: 2 },
      ],
    });
    expect(summariseCoverage([], String)).toEqual({ monitors: 0, locations: [], since: null });
  });
});
