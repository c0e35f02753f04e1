import { describe, expect, it } from 'vitest';
import { MAX_DISCARDS, overloadVerdict } from '../../src/domain/overload.js';

const timedOut = { outcome: 'down' as const, errorCode: 'timeout' as const };

describe("a failure that is Pagewatch's own, not its target's", () => {
  it('a timeout while the process was stalled for a good part of the check is not counted', () => {
    expect(overloadVerdict(timedOut, 10_000, 4_000, 0)).toBe('stalled');
    expect(overloadVerdict({ ...timedOut, errorCode: 'connect_timeout' }, 5_000, 2_000, 0)).toBe(
      'stalled',
    );
  });

  it('a timeout with the process running on time counts against the target', () => {
    expect(overloadVerdict(timedOut, 10_000, 0, 0)).toBeNull();
    // A short hiccup during a long check is noise.
    expect(overloadVerdict(timedOut, 10_000, 300, 0)).toBeNull();
  });

  it('a stall never excuses an answer the target actually gave', () => {
    for (const errorCode of ['http_status', 'connect_refused', 'dns_not_found'] as const) {
      expect(overloadVerdict({ outcome: 'down', errorCode }, 10_000, 9_000, 0)).toBeNull();
    }
    expect(overloadVerdict({ outcome: 'up', errorCode: null }, 10_000, 9_000, 0)).toBeNull();
  });

  it('running out of local resources is never the target’s failure', () => {
    expect(overloadVerdict({ outcome: 'down', errorCode: 'overloaded' }, 5, 0, 0)).toBe(
      'overloaded',
    );
  });

  it('after a few results thrown away in a row, the next one counts: no outage is hidden', () => {
    expect(overloadVerdict(timedOut, 10_000, 9_000, MAX_DISCARDS - 1)).toBe('stalled');
    expect(overloadVerdict(timedOut, 10_000, 9_000, MAX_DISCARDS)).toBeNull();
  });
});
