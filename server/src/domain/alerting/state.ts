import type { MonitorStatus } from '@pagewatch/contract';

/**
 * What a monitor's alerting remembers between checks (monitors.alert_state). Kept small: it is
 * read on every result write and written only when it changes.
 */
export interface AlertState {
  /**
   * The bad status people were last told about (down, degraded or regional); null: nothing to
   * recover from.
   */
  announced: 'down' | 'degraded' | 'regional' | null;
  /** When the announced outage began (its first failure), for `monitor.up`'s outageMs. */
  outageStart: number | null;
  /** Confirmed-down checks at the last down or still-down alert. */
  announcedAtCheck: number;
  /** Reminders sent for the current outage, for the back-off (0 after the DOWN). */
  reminders: number;
  /** First failing check of the current streak, kept across restarts. */
  streakStart: number | null;
  /** Times of recent confirmed flips outside maintenance, oldest first, within the flap window. */
  flips: number[];
  flapping: boolean;
  /** The certificate expiry warned about, and the thresholds (days) already warned for it. */
  certificate: { expiresAt: number; warned: number[] } | null;
}

export const initialAlertState: AlertState = {
  announced: null,
  outageStart: null,
  announcedAtCheck: 0,
  reminders: 0,
  streakStart: null,
  flips: [],
  flapping: false,
  certificate: null,
};

/** Stored JSON; null when there is nothing to remember (most healthy monitors). */
export function encodeAlertState(s: AlertState): string | null {
  const empty =
    s.announced === null &&
    s.outageStart === null &&
    s.streakStart === null &&
    s.flips.length === 0 &&
    !s.flapping &&
    s.certificate === null;
  return empty ? null : JSON.stringify(s);
}

export function decodeAlertState(json: string | null): AlertState {
  if (json === null) return initialAlertState;
  try {
    return { ...initialAlertState, ...(JSON.parse(json) as Partial<AlertState>) };
  } catch {
    // A damaged state only forgets what was announced; results keep being written.
    return initialAlertState;
  }
}

export const isBad = (s: MonitorStatus): s is 'down' | 'degraded' =>
  s === 'down' || s === 'degraded';
