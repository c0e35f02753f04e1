import { createContext, useContext } from 'react';
import { pageTimes } from '../times.js';

/**
 * Times on a public page: written in the page's zone (named) at render time; the page's script
 * rewrites the same elements in the visitor's zone with the same words (times.ts), and fills
 * in the relative hints, which need a clock that keeps going.
 */
export interface TimeSetting {
  zone: string;
  /** The render's clock (ms): a year is written only when it is not the current one. */
  now: number;
}

export const TimesContext = createContext<TimeSetting>({ zone: 'UTC', now: 0 });

export function At({ iso }: { iso: string }) {
  const { zone, now } = useContext(TimesContext);
  return (
    <time dateTime={iso} data-at="">
      {pageTimes.at(Date.parse(iso), zone, now)}
    </time>
  );
}

export function Range({ start, end }: { start: string; end: string }) {
  const { zone, now } = useContext(TimesContext);
  return (
    <span data-from={start} data-to={end}>
      {pageTimes.range(Date.parse(start), Date.parse(end), zone, now)}
    </span>
  );
}

export function Until({ iso }: { iso: string }) {
  const { zone, now } = useContext(TimesContext);
  return (
    <time dateTime={iso} data-until="">
      {pageTimes.until(Date.parse(iso), zone, now)}
    </time>
  );
}

/** " · starts in 4 days": hidden until the script (which has a running clock) fills it. */
export function Relative({ iso, prefix = '' }: { iso: string; prefix?: string }) {
  return (
    <span className="rel" hidden>
      {' · '}
      {prefix}
      <span data-rel={iso} />
    </span>
  );
}

/** Names the zone the page's times are in; the script says the visitor's own instead. */
export function ZoneNote() {
  const { zone, now } = useContext(TimesContext);
  return (
    <p className="tz" data-tz="">
      Times are in {zone === 'UTC' ? 'UTC' : `${zone} time (${pageTimes.zoneName(now, zone)})`}.
    </p>
  );
}
