/**
 * Uptime Kuma's data as the importer reads it: one plain shape for a 2.x SQLite database and
 * a 1.x JSON backup alike. Names follow Kuma's columns in camelCase; values are as Kuma
 * stored them (JSON text stays text), so the mappers decide every conversion.
 */

export interface KumaMonitor {
  id: number;
  name: string;
  type: string;
  active: boolean;
  parent: number | null;
  description: string;
  /** Seconds. */
  interval: number;
  retryInterval: number;
  maxretries: number;
  /** Seconds, may be fractional; null on backups from before Kuma 1.23. */
  timeout: number | null;
  resendInterval: number;
  url: string | null;
  method: string | null;
  hostname: string | null;
  port: number | null;
  keyword: string | null;
  invertKeyword: boolean;
  jsonPath: string | null;
  jsonPathOperator: string | null;
  expectedValue: string | null;
  ignoreTls: boolean;
  upsideDown: boolean;
  maxredirects: number;
  /** JSON array of strings such as "200-299" and "418". */
  acceptedStatuscodes: string[];
  /** JSON text (an object of header name to value), or empty. */
  headers: string | null;
  body: string | null;
  httpBodyEncoding: string | null;
  authMethod: string | null;
  basicAuthUser: string | null;
  basicAuthPass: string | null;
  /** Kuma 2.x's bearer authentication token. */
  bearerToken: string | null;
  dnsResolveType: string | null;
  dnsResolveServer: string | null;
  pushToken: string | null;
  expiryNotification: boolean;
  /** Kuma 2.1+: "Domain Name Expiry Notification" (RDAP), on by default; absent before. */
  domainExpiryNotification?: boolean;
  ipFamily: string | null;
  /** Kuma 2.x's extra conditions (JSON text of a list), which Pagewatch does not read. */
  conditions: string | null;
  /** Set when Kuma sent the check through one of its proxies. */
  proxyId: number | null;
  /** Database monitors: the driver's URL, user and password included. */
  databaseConnectionString: string | null;
  databaseQuery: string | null;
  /** Kuma keeps a MySQL monitor's password in this column (named for its RADIUS monitor). */
  radiusPassword: string | null;
  /** Ping monitors: echo requests per check (Kuma 2.x; 1.x sent one). */
  pingCount?: number | null;
  /** gRPC monitors: `host:port`, the service and method called, its JSON body, TLS. */
  grpcUrl?: string | null;
  grpcServiceName?: string | null;
  grpcMethod?: string | null;
  grpcBody?: string | null;
  grpcEnableTls?: boolean;
  /** WebSocket monitors: Kuma may skip checking Sec-WebSocket-Accept. */
  wsIgnoreSecWebsocketAcceptHeader?: boolean;
  /** MQTT monitors: topic, login, the expected text (or a JSONata query and its value). */
  mqttTopic?: string | null;
  mqttUsername?: string | null;
  mqttPassword?: string | null;
  mqttSuccessMessage?: string | null;
  /** null or '' (the old default: keyword), 'keyword' or 'json-query'. */
  mqttCheckType?: string | null;
  /** RabbitMQ monitors (Kuma 2.x): JSON text of the management API's node URLs, and its login. */
  rabbitmqNodes?: string | null;
  rabbitmqUsername?: string | null;
  rabbitmqPassword?: string | null;
  /** SMTP monitors (Kuma 2.x): 'secure' (TLS from the start), 'starttls', 'nostarttls' or null. */
  smtpSecurity?: string | null;
}

export interface KumaTag {
  id: number;
  name: string;
  color: string;
}

export interface KumaMonitorTag {
  monitorId: number;
  tagId: number;
  value: string;
}

export interface KumaNotification {
  id: number;
  name: string;
  active: boolean;
  isDefault: boolean;
  /** The form as Kuma keeps it: `type` plus that provider's fields, secrets in clear. */
  config: Record<string, unknown>;
}

export interface KumaStatusPage {
  id: number;
  slug: string;
  title: string;
  description: string;
  footerText: string;
  published: boolean;
  theme: string;
  customDomains: string[];
  /** Sections in their order, each with its monitors in their order. */
  groups: { name: string; monitorIds: number[] }[];
}

export interface KumaMaintenance {
  id: number;
  title: string;
  description: string;
  strategy: string;
  active: boolean;
  /** IANA zone, `SAME_AS_SERVER`, or null. */
  timezone: string | null;
  /** Local date-times as Kuma stored them (`YYYY-MM-DD HH:mm[:ss]`), or null. */
  startDate: string | null;
  endDate: string | null;
  /** `HH:mm[:ss]`, or null. */
  startTime: string | null;
  endTime: string | null;
  weekdays: number[];
  daysOfMonth: (number | string)[];
  intervalDay: number | null;
  cron: string | null;
  /** Seconds, as Kuma computed it for cron windows. */
  duration: number | null;
  monitorIds: number[];
  statusPageIds: number[];
}

/** One row of Kuma's stat_minutely / stat_hourly / stat_daily (2.x only). */
export interface KumaStat {
  monitorId: number;
  /** Unix seconds, the start of the bucket (UTC). */
  timestamp: number;
  up: number;
  down: number;
  /** Mean response time of the up beats, ms. */
  ping: number | null;
  pingMin: number | null;
  pingMax: number | null;
}

export interface KumaSource {
  /** What was read, for the report: e.g. "Uptime Kuma 2.x database (schema of 2.5.3)". */
  origin: string;
  monitors: KumaMonitor[];
  tags: KumaTag[];
  monitorTags: KumaMonitorTag[];
  notifications: KumaNotification[];
  /** [monitorId, notificationId] pairs. */
  monitorNotifications: [number, number][];
  statusPages: KumaStatusPage[];
  maintenance: KumaMaintenance[];
  /** Kuma's `serverTimezone` setting, for windows whose zone is SAME_AS_SERVER. */
  serverTimezone: string | null;
  stats: { minute: KumaStat[]; hour: KumaStat[]; day: KumaStat[] };
}
