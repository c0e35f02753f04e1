import {
  monitorAlertKeys,
  monitorCommonKeys,
  type AlertRules,
  type CheckDetails,
  type CheckErrorCode,
  type CheckOutcome,
  type MonitorInput,
  type MonitorType,
} from '@pagewatch/contract';
import type { MonitorState } from './monitor-state.js';
import type { RoundKey } from './schedule.js';

export const commonKeys = monitorCommonKeys;

type CommonKey = (typeof commonKeys)[number];
type Common = Pick<MonitorInput, CommonKey>;
/** The settings of one check type: its input minus the common keys. */
export type SettingsOf<T extends MonitorType> = Omit<Extract<MonitorInput, { type: T }>, CommonKey>;
export type MonitorSettings = { [T in MonitorType]: SettingsOf<T> }[MonitorType];

export interface LastCheckRecord {
  at: number;
  outcome: CheckOutcome;
  latencyMs: number | null;
  httpStatus: number | null;
  errorCode: CheckErrorCode | null;
  errorMessage: string | null;
}

/** [outcome, latency ms] of a recent check, oldest first. */
export type RecentEntry = [CheckOutcome, number | null];

export const RECENT_KEEP = 30;

/** A stored monitor as the domain sees it: definition plus its current state. */
export interface MonitorRecord extends Omit<Common, 'type'> {
  id: number;
  type: MonitorType;
  settings: MonitorSettings;
  state: MonitorState;
  statusChangedAt: number | null;
  lastCheck: LastCheckRecord | null;
  recent: RecentEntry[];
  /**
   * The request credential (basic password or bearer token) sealed with the instance key;
   * settings never hold it. Null (or left out) when there is none.
   */
  secret?: string | null;
  /**
   * The values of the secret request headers, in settings order, as a sealed JSON array;
   * settings hold only their names. Null (or left out) when no header is secret.
   */
  headerSecrets?: string | null;
  /** Certificate and assertion results of the last check; null (or left out) before one. */
  lastDetails?: CheckDetails | null;
  createdAt: number;
  updatedAt: number;
  /** Alert rules; null (or left out) for the defaults. */
  alerts?: AlertRules | null;
  /** Push monitors: the push URL's token (absent or null on other types). */
  pushToken?: string | null;
  /** Push monitors: when the last ping arrived; null before the first. */
  lastPingAt?: number | null;
  /** The round key of the last result recorded (domain/schedule.ts); absent before one. */
  lastRound?: RoundKey | null;
  /**
   * The locations it is checked from (ADR 58), sorted; absent or null: `local` only, decided
   * by the scheduler alone as before.
   */
  locations?: readonly string[] | null;
}

/** Whether the built-in scheduler (location `local`) checks this monitor. */
export function checkedLocally(m: Pick<MonitorRecord, 'locations'>): boolean {
  return !m.locations || m.locations.includes('local');
}

/** Whether the monitor's status is a quorum of several locations rather than one check's. */
export function decidedByQuorum(m: Pick<MonitorRecord, 'locations'>): boolean {
  return !!m.locations && (m.locations.length > 1 || m.locations[0] !== 'local');
}

/** The settings of a monitor known to be of `type` (a registry entry's own type). */
export function settingsOf<T extends MonitorType>(m: MonitorRecord, type: T): SettingsOf<T> {
  if (m.type !== type) throw new Error(`Monitor ${m.id} is ${m.type}, not ${type}`);
  return m.settings as unknown as SettingsOf<T>;
}

export function splitInput(input: MonitorInput): { common: Common; settings: MonitorSettings } {
  const common: Record<string, unknown> = {};
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    // Alerting is stored apart from the definition (monitors.alert_rules, monitor_channels).
    if ((monitorAlertKeys as readonly string[]).includes(key)) continue;
    if ((commonKeys as readonly string[]).includes(key)) common[key] = value;
    else settings[key] = value;
  }
  return { common: common as Common, settings: settings as MonitorSettings };
}

export function pushRecent(recent: readonly RecentEntry[], entry: RecentEntry): RecentEntry[] {
  const next =
    recent.length >= RECENT_KEEP ? recent.slice(recent.length - RECENT_KEEP + 1) : [...recent];
  next.push(entry);
  return next;
}
