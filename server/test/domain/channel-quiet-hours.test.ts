import { describe, expect, it } from 'vitest';
import {
  routeForChannel,
  type ChannelQuiet,
  type QuietWindow,
} from '../../src/domain/quiet-hours/index.js';

const at = (iso: string) => Date.parse(iso);
const everyDay = [0, 1, 2, 3, 4, 5, 6];
const nights: QuietWindow = {
  days: everyDay,
  from: '22:00',
  to: '07:00',
  timeZone: 'Europe/Berlin',
};

/** A fake clock: set to an instant, moved by hand; nothing here reads the real time. */
function fakeClock(start: string) {
  let t = at(start);
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const HOUR = 3_600_000;
const OPS = 1;
const PAGER = 2;
const MAIL = 3;

function route(
  channelId: number,
  severity: 'critical' | 'warning',
  now: number,
  quiet: Record<number, ChannelQuiet>,
  live: number[] = [OPS, PAGER, MAIL],
) {
  const r = routeForChannel({
    channelId,
    severity,
    at: now,
    quiet: new Map(Object.entries(quiet).map(([k, v]) => [Number(k), v])),
    live: new Set(live),
  });
  return { ...r, sendAt: new Date(r.sendAt).toISOString() };
}

describe('a channel’s quiet hours and time routing', () => {
  it('holds a warning to the end of the window, lets a critical one through, and the window ends', () => {
    const clock = fakeClock('2026-11-27T22:30:00Z'); // 23:30 CET
    const quiet = { [OPS]: { windows: [nights], rerouteChannelId: null } };
    expect(route(OPS, 'warning', clock.now(), quiet)).toEqual({
      channelId: OPS,
      sendAt: '2026-11-28T06:00:00.000Z', // 07:00 CET
      reroutedFrom: [],
    });
    expect(route(OPS, 'critical', clock.now(), quiet)).toEqual({
      channelId: OPS,
      sendAt: '2026-11-27T22:30:00.000Z',
      reroutedFrom: [],
    });
    clock.advance(7.5 * HOUR); // 07:00 CET: over
    expect(route(OPS, 'warning', clock.now(), quiet).sendAt).toBe('2026-11-28T06:00:00.000Z');
    expect(route(OPS, 'warning', clock.now(), quiet).reroutedFrom).toEqual([]);
  });

  it('across the spring DST change the night ends at 07:00 local, an hour earlier in UTC', () => {
    // Berlin, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST.
    const clock = fakeClock('2026-03-28T22:00:00Z'); // 23:00 CET Saturday
    const quiet = { [OPS]: { windows: [nights], rerouteChannelId: null } };
    expect(route(OPS, 'warning', clock.now(), quiet).sendAt).toBe('2026-03-29T05:00:00.000Z');
    clock.advance(3 * HOUR); // 03:00 CEST, after the jump: still the same night
    expect(route(OPS, 'warning', clock.now(), quiet).sendAt).toBe('2026-03-29T05:00:00.000Z');
    // The autumn change (25 October 2026): the night ends at 07:00 CET = 06:00 UTC.
    const autumn = fakeClock('2026-10-24T21:00:00Z'); // 23:00 CEST Saturday
    expect(route(OPS, 'warning', autumn.now(), quiet).sendAt).toBe('2026-10-25T06:00:00.000Z');
  });

  it('sends a warning to the reroute channel at once, following its own quiet hours in turn', () => {
    const clock = fakeClock('2026-11-27T22:30:00Z');
    const quiet: Record<number, ChannelQuiet> = {
      [OPS]: { windows: [nights], rerouteChannelId: MAIL },
    };
    expect(route(OPS, 'warning', clock.now(), quiet)).toEqual({
      channelId: MAIL,
      sendAt: '2026-11-27T22:30:00.000Z',
      reroutedFrom: [OPS],
    });
    // Critical: still the channel itself, at once.
    expect(route(OPS, 'critical', clock.now(), quiet).channelId).toBe(OPS);
    // The mail channel is quiet too, and holds: the warning waits there.
    quiet[MAIL] = {
      windows: [{ days: everyDay, from: '23:00', to: '08:00', timeZone: 'Europe/Berlin' }],
      rerouteChannelId: null,
    };
    expect(route(OPS, 'warning', clock.now(), quiet)).toEqual({
      channelId: MAIL,
      sendAt: '2026-11-28T07:00:00.000Z',
      reroutedFrom: [OPS],
    });
  });

  it('never drops: a disabled target or a chain that comes back stops, and the warning waits', () => {
    const clock = fakeClock('2026-11-27T22:30:00Z');
    const loop: Record<number, ChannelQuiet> = {
      [OPS]: { windows: [nights], rerouteChannelId: PAGER },
      [PAGER]: { windows: [nights], rerouteChannelId: OPS },
    };
    expect(route(OPS, 'warning', clock.now(), loop)).toEqual({
      channelId: PAGER,
      sendAt: '2026-11-28T06:00:00.000Z',
      reroutedFrom: [OPS],
    });
    const toDisabled = { [OPS]: { windows: [nights], rerouteChannelId: MAIL } };
    expect(route(OPS, 'warning', clock.now(), toDisabled, [OPS, PAGER])).toEqual({
      channelId: OPS,
      sendAt: '2026-11-28T06:00:00.000Z',
      reroutedFrom: [],
    });
    // Outside the window a reroute channel changes nothing.
    clock.advance(12 * HOUR);
    expect(route(OPS, 'warning', clock.now(), toDisabled)).toEqual({
      channelId: OPS,
      sendAt: new Date(clock.now()).toISOString(),
      reroutedFrom: [],
    });
  });
});
