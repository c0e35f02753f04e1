import {
  alertDefaults,
  isHarmlessHeader,
  type BodyType,
  type DnsMatch,
  type DnsRecordType,
  type GroupRule,
  type BrowserViewport,
  type BrowserWaitFor,
  type HttpMethod,
  type IpFamily,
  type MailSecurity,
  type MqttMatch,
  type MqttMode,
  type Monitor,
  type MonitorDraft,
  type MonitorType,
  type PayloadFormat,
  type WebSocketExpect,
} from '@pagewatch/contract';
import type { AssertionRow } from './assertion-rows';
import { formKinds } from './kinds';

export interface HeaderRow {
  /** Stable identity for React keys and error keys while rows are added and removed. */
  key: number;
  name: string;
  /** The value typed; for a stored secret, empty keeps the stored one (never sent back). */
  value: string;
  /** Sealed and write-only on the server; the value is masked here. */
  secret: boolean;
  /** Editing: the name a secret value is stored under; null when none is. */
  storedAs: string | null;
  /** The secret box was ticked or unticked by hand, so the name no longer decides it. */
  secretTouched: boolean;
}

/** What the inputs hold: text as typed, turned into a MonitorDraft only for validation and submit. */
export interface FormValues {
  /** Chosen on create; fixed when editing. Fields of the other types are kept but not sent. */
  type: MonitorType;
  name: string;
  url: string;
  method: HttpMethod;
  interval: string;
  timeout: string;
  retries: string;
  retryInterval: string;
  degradedThresholdMs: string;
  headers: HeaderRow[];
  bodyType: BodyType;
  body: string;
  authKind: 'none' | 'basic' | 'bearer';
  authUsername: string;
  /** The password or token typed; empty keeps the saved one (see authSaved). */
  authSecret: string;
  /** The auth kind saved with a secret, when editing; null when none is stored. */
  authSaved: 'basic' | 'bearer' | null;
  acceptedStatusCodes: string;
  followRedirects: boolean;
  maxRedirects: string;
  ipFamily: IpFamily;
  ignoreTls: boolean;
  assertions: AssertionRow[];
  maxBodyBytes: string;
  host: string;
  port: string;
  send: string;
  expect: string;
  recordType: DnsRecordType;
  resolver: string;
  /** Expected DNS values, one per line. */
  expected: string;
  match: DnsMatch;
  servername: string;
  warnDays: string;
  ignoreTrust: boolean;
  graceSeconds: string;
  /** Push: pings every interval, or on a cron / OnCalendar schedule in a time zone. */
  scheduleKind: 'interval' | 'cron' | 'oncalendar';
  scheduleExpression: string;
  scheduleTimezone: string;
  /** Domain monitors: the host name whose registration is watched. */
  domain: string;
  /** Domain monitors and the HTTP option: days of warning before the registration expires. */
  domainWarnDays: string;
  /** HTTP: also watch the URL's registered domain. */
  httpDomainExpiry: boolean;
  /** Group monitors: member ids as "1,2,3", the rule and its least share up. */
  groupMembers: string;
  groupRule: GroupRule;
  groupMinUpPercent: string;
  viewport: BrowserViewport;
  waitFor: BrowserWaitFor;
  waitSelector: string;
  requiredText: string;
  requiredSelector: string;
  lcpThresholdMs: string;
  failOnJsError: boolean;
  basicAuthEnabled: boolean;
  basicAuthUsername: string;
  /** The password typed; empty keeps the saved one (see basicAuthSaved). */
  basicAuthPassword: string;
  /** Editing a browser monitor whose basic-auth password is stored (never sent back). */
  basicAuthSaved: boolean;
  /** Ping: echo requests per check. */
  count: string;
  packetIntervalMs: string;
  lossDegradedPercent: string;
  /** UDP: how send and expect are written. */
  payloadFormat: PayloadFormat;
  /** WebSocket: what the reply is judged by. */
  expectKind: WebSocketExpect;
  expectPath: string;
  expectValue: string;
  /** gRPC: the health service's service name; empty: the whole server. */
  grpcService: string;
  grpcTls: boolean;
  /** Database types: the database (a number for Redis), as typed; empty for the default. */
  dbDatabase: string;
  dbUsername: string;
  /** The password typed; empty keeps the saved one (see dbPasswordSaved). */
  dbPassword: string;
  /** Editing a database monitor whose password is stored (never sent back). */
  dbPasswordSaved: boolean;
  dbTls: boolean;
  /** The SQL query or the Redis command. */
  dbQuery: string;
  dbExpected: string;
  /** MQTT: what happens once connected, and the topic and message rule of subscribe. */
  mqttMode: MqttMode;
  mqttTopic: string;
  mqttMatch: MqttMatch;
  mqttJsonPath: string;
  mqttExpected: string;
  /** RabbitMQ: the virtual host, the queue to find (empty: none) and its maximum depth. */
  amqpVhost: string;
  amqpQueue: string;
  amqpMaxDepth: string;
  /** SMTP: STARTTLS, TLS from the first byte, or plain. */
  mailSecurity: MailSecurity;
  smtpEhloName: string;
  /** EHLO extensions that must be offered, separated by commas or spaces. */
  smtpCapabilities: string;
  tags: string;
  description: string;
  paused: boolean;
  alertAfterChecks: string;
  /** Empty: no reminders while down. */
  alertRenotify: string;
  alertRenotifyBackoff: 'fixed' | 'linear' | 'exponential';
  alertRecovery: boolean;
  alertDegraded: boolean;
  alertRegional: boolean;
  alertFlapThreshold: string;
  alertFlapWindow: string;
  /** Critical alerts break through quiet hours; warnings may wait (ADR 39). */
  alertSeverity: 'critical' | 'warning';
  /** The escalation policy routing its outages; null: its channels at once. */
  alertPolicyId: number | null;
  /** Channels ticked; null on a new monitor until touched: the default channels. */
  channelIds: number[] | null;
}

let nextKey = 1;
/** A header row; a new one is secret unless its name is a harmless one (Accept, User-Agent…). */
export const newHeaderRow = (
  name = '',
  value = '',
  secret = !isHarmlessHeader(name),
  storedAs: string | null = null,
): HeaderRow => ({ key: nextKey++, name, value, secret, storedAs, secretTouched: false });

/**
 * Whether the row still names its stored secret: the server matches it by name (any case),
 * so a renamed row needs its value typed again.
 */
export const namesStored = (h: HeaderRow): boolean =>
  h.storedAs !== null && h.storedAs.toLowerCase() === h.name.trim().toLowerCase();

export const emptyValues = (type: MonitorType = 'http'): FormValues => ({
  type,
  name: '',
  url: '',
  method: 'GET',
  interval: '60',
  timeout: '10',
  retries: '1',
  retryInterval: '',
  degradedThresholdMs: '',
  headers: [],
  bodyType: 'none',
  body: '',
  authKind: 'none',
  authUsername: '',
  authSecret: '',
  authSaved: null,
  acceptedStatusCodes: '200-299',
  followRedirects: true,
  maxRedirects: '10',
  ipFamily: 'auto',
  ignoreTls: false,
  assertions: [],
  maxBodyBytes: String(1024 * 1024),
  host: '',
  port: '',
  send: '',
  expect: '',
  recordType: 'A',
  resolver: '',
  expected: '',
  match: 'any',
  servername: '',
  warnDays: '14',
  ignoreTrust: false,
  graceSeconds: '60',
  scheduleKind: 'interval',
  scheduleExpression: '',
  scheduleTimezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  domain: '',
  domainWarnDays: '30',
  httpDomainExpiry: false,
  groupMembers: '',
  groupRule: 'any_down',
  groupMinUpPercent: '100',
  viewport: 'desktop',
  waitFor: 'load',
  waitSelector: '',
  requiredText: '',
  requiredSelector: '',
  lcpThresholdMs: '',
  failOnJsError: true,
  basicAuthEnabled: false,
  basicAuthUsername: '',
  basicAuthPassword: '',
  basicAuthSaved: false,
  count: '3',
  packetIntervalMs: '1000',
  lossDegradedPercent: '0',
  payloadFormat: 'text',
  expectKind: 'none',
  expectPath: '',
  expectValue: '',
  grpcService: '',
  grpcTls: false,
  dbDatabase: '',
  dbUsername: '',
  dbPassword: '',
  dbPasswordSaved: false,
  dbTls: false,
  dbQuery: '',
  dbExpected: '',
  mqttMode: 'connect',
  mqttTopic: '',
  mqttMatch: 'keyword',
  mqttJsonPath: '',
  mqttExpected: '',
  amqpVhost: '/',
  amqpQueue: '',
  amqpMaxDepth: '',
  mailSecurity: 'starttls',
  smtpEhloName: '',
  smtpCapabilities: '',
  tags: '',
  description: '',
  paused: false,
  alertAfterChecks: String(alertDefaults.afterChecks),
  alertRenotify: '',
  alertRenotifyBackoff: 'fixed',
  alertRecovery: alertDefaults.notifyRecovery,
  alertDegraded: alertDefaults.notifyDegraded,
  alertRegional: false,
  alertFlapThreshold: String(alertDefaults.flapThreshold),
  alertFlapWindow: String(alertDefaults.flapWindowS),
  alertSeverity: 'critical',
  alertPolicyId: null,
  channelIds: null,
});

export function fromMonitor(m: Monitor): FormValues {
  return {
    ...emptyValues(m.type),
    ...formKinds[m.type].values(m as never),
    name: m.name,
    interval: String(m.interval),
    timeout: String(m.timeout),
    retries: String(m.retries),
    retryInterval: m.retryInterval === null ? '' : String(m.retryInterval),
    degradedThresholdMs: m.degradedThresholdMs === null ? '' : String(m.degradedThresholdMs),
    tags: m.tags.join(', '),
    description: m.description,
    paused: m.paused,
    alertAfterChecks: String(m.alerts.afterChecks),
    alertRenotify:
      m.alerts.renotifyEveryChecks === null ? '' : String(m.alerts.renotifyEveryChecks),
    alertRenotifyBackoff: m.alerts.renotifyBackoff ?? 'fixed',
    alertRecovery: m.alerts.notifyRecovery,
    alertDegraded: m.alerts.notifyDegraded,
    alertRegional: m.alerts.notifyRegional,
    alertFlapThreshold: String(m.alerts.flapThreshold),
    alertFlapWindow: String(m.alerts.flapWindowS),
    alertSeverity: m.alerts.severity,
    alertPolicyId: m.alerts.escalationPolicyId,
    channelIds: m.channelIds,
  };
}

export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** One value per line; blank lines are ignored. */
export const splitLines = (text: string): string[] =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export interface DraftResult {
  draft: MonitorDraft;
  /** Row keys of the headers that were sent, by their index in the draft. */
  headerKeys: number[];
  /** Row keys of the assertions, by their index in the draft. */
  assertionKeys: number[];
  /** Number fields that hold something other than a number. */
  notNumbers: string[];
}

export type NumberField =
  | 'interval'
  | 'timeout'
  | 'retries'
  | 'retryInterval'
  | 'degradedThresholdMs'
  | 'maxRedirects'
  | 'maxBodyBytes'
  | 'port'
  | 'warnDays'
  | 'graceSeconds'
  | 'domainWarnDays'
  | 'groupMinUpPercent'
  | 'lcpThresholdMs'
  | 'count'
  | 'packetIntervalMs'
  | 'lossDegradedPercent'
  | 'amqpMaxDepth'
  | 'alertAfterChecks'
  | 'alertRenotify'
  | 'alertFlapThreshold'
  | 'alertFlapWindow';

/** Reads a number field: undefined when empty (or not a number, which is noted). */
export type ReadNumber = (field: NumberField) => number | undefined;

export function toDraft(v: FormValues): DraftResult {
  const notNumbers: string[] = [];
  const num: ReadNumber = (field) => {
    const text = v[field].trim();
    if (text === '') return undefined;
    const n = Number(text);
    if (!Number.isFinite(n)) {
      notNumbers.push(field);
      return undefined;
    }
    return n;
  };
  const kind = formKinds[v.type].draft(v, num);
  const draft = {
    ...kind.settings,
    type: v.type,
    name: v.name,
    interval: num('interval'),
    timeout: num('timeout'),
    retries: num('retries'),
    retryInterval: num('retryInterval') ?? null,
    degradedThresholdMs: num('degradedThresholdMs') ?? null,
    tags: splitList(v.tags),
    description: v.description,
    paused: v.paused,
    alerts: {
      afterChecks: num('alertAfterChecks'),
      renotifyEveryChecks: num('alertRenotify') ?? null,
      renotifyBackoff: v.alertRenotifyBackoff,
      notifyRecovery: v.alertRecovery,
      notifyDegraded: v.alertDegraded,
      notifyRegional: v.alertRegional,
      flapThreshold: num('alertFlapThreshold'),
      flapWindowS: num('alertFlapWindow'),
      severity: v.alertSeverity,
      escalationPolicyId: v.alertPolicyId,
    },
    ...(v.channelIds === null ? {} : { channelIds: v.channelIds }),
  } as MonitorDraft;
  return {
    draft,
    headerKeys: kind.headerKeys ?? [],
    assertionKeys: kind.assertionKeys ?? [],
    notNumbers,
  };
}
