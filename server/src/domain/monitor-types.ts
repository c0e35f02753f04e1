import type { MonitorType } from '@pagewatch/contract';
import type { MonitorRecord, SettingsOf } from './monitor.js';

interface TypeTraits<T extends MonitorType> {
  /** What the monitor points at, as shown in lists. */
  target(settings: SettingsOf<T>): string;
  /**
   * The type's settings carry a write-only `password` (sealed in the monitor's secret column,
   * shown as `hasPassword`).
   */
  password?: true;
  /**
   * The settings carry request headers (`headers`) whose secret values are sealed apart
   * (ADR 17), shown by name only.
   */
  headers?: true;
  /** Other monitors this one's settings name by id (a group's members): checked on save. */
  references?(settings: SettingsOf<T>): readonly number[];
  /**
   * The settings field holding those ids, which configuration documents write as monitor
   * keys (ADR 28: entries name each other by key).
   */
  referenceField?: string;
}

/** IPv6 literals are bracketed before a port, as in URLs. */
const hostPort = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Per-type facts the domain needs; one entry per check type. */
const traits: { [T in MonitorType]: TypeTraits<T> } = {
  http: { headers: true, target: (s) => s.url },
  tcp: { target: (s) => hostPort(s.host, s.port) },
  dns: { target: (s) => `${s.recordType} ${s.host}${s.resolver === '' ? '' : ` @ ${s.resolver}`}` },
  tls: { target: (s) => hostPort(s.host, s.port) },
  // Nothing is fetched: the job calls in. The URL's token is a secret, never a list's text.
  push: { target: () => 'push' },
  browser: { headers: true, target: (s) => s.url },
  ping: { target: (s) => s.host },
  udp: { target: (s) => `udp://${hostPort(s.host, s.port)}` },
  websocket: { headers: true, target: (s) => s.url },
  grpc: {
    headers: true,
    target: (s) => `grpc${s.tls ? 's' : ''}://${hostPort(s.host, s.port)}`,
  },
  domain: { target: (s) => s.domain },
  postgres: {
    password: true,
    target: (s) =>
      `postgres://${hostPort(s.host, s.port)}${s.database === '' ? '' : `/${s.database}`}`,
  },
  mysql: {
    password: true,
    target: (s) =>
      `mysql://${hostPort(s.host, s.port)}${s.database === '' ? '' : `/${s.database}`}`,
  },
  redis: {
    password: true,
    target: (s) => `redis://${hostPort(s.host, s.port)}${s.database === 0 ? '' : `/${s.database}`}`,
  },
  mongodb: {
    password: true,
    target: (s) => `mongodb://${hostPort(s.host, s.port)}/${s.database}`,
  },
  mqtt: {
    password: true,
    target: (s) =>
      `mqtt${s.tls ? 's' : ''}://${hostPort(s.host, s.port)}${s.topic === '' ? '' : ` ${s.topic}`}`,
  },
  amqp: {
    password: true,
    target: (s) =>
      `amqp${s.tls ? 's' : ''}://${hostPort(s.host, s.port)}${s.vhost === '/' ? '' : `/${encodeURIComponent(s.vhost)}`}${s.queue === '' ? '' : ` ${s.queue}`}`,
  },
  smtp: { target: (s) => `smtp${s.security === 'tls' ? 's' : ''}://${hostPort(s.host, s.port)}` },
  imap: { target: (s) => `imap${s.security === 'tls' ? 's' : ''}://${hostPort(s.host, s.port)}` },
  pop3: { target: (s) => `pop3${s.security === 'tls' ? 's' : ''}://${hostPort(s.host, s.port)}` },
  group: {
    target: (s) => `${s.members.length} member${s.members.length === 1 ? '' : 's'}`,
    references: (s) => s.members,
    referenceField: 'members',
  },
};

/** The settings field a type names other monitors in, if any. */
export const referenceFieldOf = (type: MonitorType): string | undefined =>
  (traits[type] as TypeTraits<MonitorType> | undefined)?.referenceField;

/** Monitor ids a monitor's settings reference (empty for most types). */
export const referencesOf = (type: MonitorType, settings: unknown): readonly number[] =>
  (traits[type] as TypeTraits<MonitorType>).references?.(settings as SettingsOf<MonitorType>) ?? [];

/** The types whose settings reference other monitors. */
export const referencingTypes = (Object.keys(traits) as MonitorType[]).filter(
  (t) => (traits[t] as TypeTraits<MonitorType>).references !== undefined,
);

/** Whether monitors of this type keep a write-only password in their secret column. */
export const hasPassword = (type: MonitorType): boolean =>
  (traits[type] as TypeTraits<MonitorType>).password === true;

/** Whether monitors of this type send request headers (HTTP headers, gRPC metadata). */
export const hasRequestHeaders = (type: MonitorType): boolean =>
  (traits[type] as TypeTraits<MonitorType>).headers === true;

export const monitorTarget = (m: MonitorRecord): string =>
  (traits[m.type] as TypeTraits<MonitorType>).target(m.settings);
