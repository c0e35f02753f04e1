import {
  atLeast,
  defaultAlertRules,
  type BasicAuthView,
  type HttpAuthView,
  type Monitor,
  type RequestHeaderInput,
  type RequestHeaderView,
} from '@pagewatch/contract';
import { actorRole, type RequestContext } from '../../domain/actor.js';
import { displayStatus } from '../../domain/monitor-state.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import { nextPingExpectedAt } from '../../domain/heartbeat.js';
import { scheduleOf } from '../../domain/heartbeat-schedule.js';
import { hasPassword, hasRequestHeaders } from '../../domain/monitor-types.js';
import { presentLastCheck } from '../../services/monitors/present-summary.js';

export { countByStatus, presentSummary } from '../../services/monitors/present-summary.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Who the monitor is shown to: what they may see and where this instance is reached. */
export interface MonitorView {
  /** Editors and above see push tokens; a viewer could otherwise send pings (SPEC §6). */
  secrets: boolean;
  publicUrl: string | null;
  /** The clock the next expected ping is read against; now by default. */
  now?: number;
}

export const monitorView = (
  ctx: RequestContext,
  publicUrl: string | null | undefined,
  now?: number,
): MonitorView => {
  const role = actorRole(ctx.actor);
  return {
    secrets: role !== null && atLeast(role, 'editor'),
    publicUrl: publicUrl ?? null,
    ...(now === undefined ? {} : { now }),
  };
};

function pushFields(m: MonitorRecord, view: MonitorView) {
  if (m.type !== 'push') return {};
  const token = m.pushToken ?? '';
  const path = `/api/push/${token}`;
  const shown = view.secrets && token !== '';
  return {
    pushToken: shown ? token : null,
    pushUrl: shown ? (view.publicUrl ? new URL(path, view.publicUrl).href : path) : null,
    pushTokenHint: token.slice(0, 4),
    lastPingAt: iso(m.lastPingAt ?? null),
    schedule: scheduleOf(m.settings as { schedule?: undefined }),
    nextPingExpectedAt: iso(nextPingExpectedAt(m, view.now ?? Date.now())),
    // A ping's run time is its result's latency; a miss has none.
    lastRunMs:
      m.lastCheck && m.lastCheck.errorCode !== 'heartbeat_missed' ? m.lastCheck.latencyMs : null,
  };
}

/** Settings rows written before a setting existed lack it: its default, as the input's. */
function settingsAddedLater(m: MonitorRecord): Record<string, unknown> {
  if (m.type !== 'http') return {};
  return { domainExpiry: (m.settings as { domainExpiry?: unknown }).domainExpiry ?? null };
}

/** Credentials are write-only: the API says whether one is stored, never what it is. */
function authView(m: MonitorRecord): { auth: HttpAuthView } | Record<string, never> {
  if (m.type !== 'http') return {};
  const auth = (m.settings as { auth?: { kind: string; username?: string } }).auth;
  if (auth?.kind === 'basic') {
    return { auth: { kind: 'basic', username: auth.username ?? '', hasSecret: m.secret != null } };
  }
  if (auth?.kind === 'bearer') return { auth: { kind: 'bearer', hasSecret: m.secret != null } };
  return { auth: { kind: 'none' } };
}

/** A browser monitor's basic auth, password left out (an unsealed one from before counts). */
function basicAuthView(
  m: MonitorRecord,
): { basicAuth: BasicAuthView | null } | Record<string, never> {
  if (m.type !== 'browser') return {};
  const auth = (m.settings as { basicAuth?: { username: string; password?: string } | null })
    .basicAuth;
  if (!auth) return { basicAuth: null };
  const hasSecret = m.secret != null || (auth.password ?? '') !== '';
  return { basicAuth: { username: auth.username, hasSecret } };
}

/** A database's or broker's password: whether one is stored, never what it is. */
function passwordView(m: MonitorRecord): { hasPassword: boolean } | Record<string, never> {
  return hasPassword(m.type) ? { hasPassword: m.secret != null } : {};
}

/** Request headers are write-only when secret: a secret one shows its name, never its value. */
function headersView(m: MonitorRecord): { headers: RequestHeaderView[] } | Record<string, never> {
  if (!hasRequestHeaders(m.type)) return {};
  const headers = (m.settings as { headers?: RequestHeaderInput[] }).headers ?? [];
  return {
    headers: headers.map((h) =>
      h.secret
        ? { name: h.name, secret: true, hasValue: m.headerSecrets != null }
        : { name: h.name, secret: false, hasValue: (h.value ?? '') !== '', value: h.value ?? '' },
    ),
  };
}

/** The full monitor, definition included, for its page and its edit form. */
export function presentMonitor(
  m: MonitorRecord,
  view: MonitorView,
  maintenance = false,
  channelIds: number[] = [],
): Monitor {
  return {
    id: m.id,
    status: displayStatus(m.state, m.paused, maintenance),
    statusChangedAt: iso(m.statusChangedAt),
    lastCheck: presentLastCheck(m.lastCheck),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
    ...m.settings,
    ...settingsAddedLater(m),
    ...authView(m),
    ...basicAuthView(m),
    ...passwordView(m),
    ...headersView(m),
    type: m.type,
    name: m.name,
    interval: m.interval,
    timeout: m.timeout,
    retries: m.retries,
    retryInterval: m.retryInterval,
    degradedThresholdMs: m.degradedThresholdMs,
    tags: m.tags,
    description: m.description,
    paused: m.paused,
    ...pushFields(m, view),
    lastDetails: m.lastDetails ?? null,
    alerts: m.alerts ?? defaultAlertRules,
    channelIds,
  } as Monitor; // settings and type were validated together by MonitorInput when stored
}
