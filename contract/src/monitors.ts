import { z } from 'zod';
import { AlertRules } from './alert-rules.js';
import { Assertion, Assertions, assertionLimits, HEADER_TOKEN } from './assertions.js';
import { BrowserViewport, BrowserWaitFor } from './browser.js';
import { CheckDetails, CheckErrorCode, CheckOutcome } from './checks.js';
import { GrpcMetadataInput, RequestHeadersInput, RequestHeaderView } from './request-headers.js';
import { parseStatusRange } from './status-codes.js';
import { HeartbeatSchedule } from './heartbeat-schedule.js';
import { DomainExpiryWarnDays, DomainExpiryOption } from './domain-expiry.js';
import { parseJsonPath } from './json-path.js';

export * from './request-headers.js';

export const limits = {
  intervalMin: 10,
  intervalMax: 86_400,
  timeoutMin: 1,
  timeoutMax: 120,
  retriesMax: 10,
  keywordMax: 1000,
  tagsMax: 20,
  tagMax: 40,
  nameMax: 100,
  tcpSendMax: 4096,
  tcpExpectMax: 1000,
  dnsExpectedMax: 20,
  dnsValueMax: 1000,
  tlsWarnDaysMin: 1,
  tlsWarnDaysMax: 365,
  graceMax: 86_400,
  browserIntervalMin: 60,
  selectorMax: 500,
  pingCountMax: 20,
  pingIntervalMinMs: 200,
  pingIntervalMaxMs: 10_000,
  /** A database monitor's query or command. */
  dbQueryMax: 2000,
} as const;

export const defaults = {
  interval: 60,
  timeout: 10,
  retries: 1,
  maxRedirects: 10,
  /** Decoded body bytes read for assertions (SPEC §9). */
  maxBodyBytes: 1024 * 1024,
  acceptedStatusCodes: ['200-299'],
  tlsPort: 443,
  /** SPEC §9: the first of the 14, 7 and 1 day expiry warnings. */
  tlsWarnDays: 14,
  graceSeconds: 60,
  pingCount: 3,
  pingIntervalMs: 1000,
  postgresPort: 5432,
  mysqlPort: 3306,
  redisPort: 6379,
  mongodbPort: 27017,
  mqttPort: 1883,
  amqpPort: 5672,
  smtpPort: 25,
} as const;

export const MonitorType = z.enum([
  'http',
  'tcp',
  'dns',
  'tls',
  'push',
  'browser',
  'domain',
  'postgres',
  'mysql',
  'redis',
  'mongodb',
  'ping',
  'udp',
  'websocket',
  'grpc',
  'mqtt',
  'amqp',
  'smtp',
  'imap',
  'pop3',
  'group',
]);
export type MonitorType = z.infer<typeof MonitorType>;

/**
 * `regional`: some of a monitor's locations fail, fewer than its quorum; `unknown`: fewer fresh
 * location verdicts than the quorum needs (ADR 58). Neither is ever shown as up.
 */
export const MonitorStatus = z.enum([
  'pending',
  'up',
  'degraded',
  'down',
  'paused',
  'maintenance',
  'regional',
  'unknown',
]);
export type MonitorStatus = z.infer<typeof MonitorStatus>;

export const HttpMethod = z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export type HttpMethod = z.infer<typeof HttpMethod>;

const TOKEN = HEADER_TOKEN;

export const HttpUrl = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .max(2048, 'URLs longer than 2,048 characters are not supported')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Enter a full http:// or https:// URL with a host, e.g. https://example.com/health');

/** A header name and value as sent: webhook channels, and a check once its secrets are opened. */
export const Header = z.strictObject({
  name: z.string().regex(TOKEN, "Header names are letters, digits and !#$%&'*+-.^_`|~ only"),
  value: z
    .string()
    .max(8192, 'Header values are limited to 8,192 characters')
    .refine((v) => !/[\r\n\0]/.test(v), 'Header values cannot contain line breaks'),
});
export type Header = z.infer<typeof Header>;

/**
 * How `body` is sent. `json` must parse and is sent as application/json; `form` is
 * URL-encoded `name=value` pairs joined by `&` (e.g. `user=ann&remember=1`), sent as
 * application/x-www-form-urlencoded; `raw` is sent as typed with no Content-Type of its own.
 * A Content-Type header of the user's always wins.
 */
export const BodyType = z.enum(['none', 'json', 'form', 'raw']);
export type BodyType = z.infer<typeof BodyType>;

export const IpFamily = z.enum(['auto', 'ipv4', 'ipv6']);
export type IpFamily = z.infer<typeof IpFamily>;

const NO_CONTROL = (v: string) => ![...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');

/**
 * Request authentication. Secrets (password, token) are write-only: stored encrypted, never
 * returned; leaving one out of an update keeps the stored one (when the kind is unchanged).
 */
export const HttpAuthInput = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({
      kind: z.literal('basic'),
      username: z
        .string()
        .min(1, 'Enter the user name')
        .max(256, 'User names are limited to 256 characters')
        .refine((v) => !v.includes(':'), 'Basic auth user names cannot contain ":"')
        .refine(NO_CONTROL, 'User names cannot contain control characters'),
      password: z
        .string()
        .max(1024, 'Passwords are limited to 1,024 characters')
        .refine(NO_CONTROL, 'Passwords cannot contain control characters')
        .optional(),
    }),
    z.strictObject({
      kind: z.literal('bearer'),
      token: z
        .string()
        .min(1, 'Enter the token')
        .max(4096, 'Tokens are limited to 4,096 characters')
        .refine((v) => !/\s/.test(v), 'Tokens cannot contain spaces or line breaks')
        .optional(),
    }),
  ],
  { error: 'Choose none, basic or bearer' },
);
export type HttpAuthInput = z.infer<typeof HttpAuthInput>;

/** Authentication as the API returns it: whether a secret is stored, never the secret. */
export const HttpAuthView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('basic'), username: z.string(), hasSecret: z.boolean() }),
  z.object({ kind: z.literal('bearer'), hasSecret: z.boolean() }),
]);
export type HttpAuthView = z.infer<typeof HttpAuthView>;

function validBody(type: BodyType, body: string): { path: string; message: string } | null {
  if (type === 'none') {
    return body === '' ? null : { path: 'body', message: 'Choose a body type, or clear the body' };
  }
  if (type === 'json') {
    try {
      JSON.parse(body);
      return null;
    } catch {
      return { path: 'body', message: 'The body is not valid JSON' };
    }
  }
  if (type === 'form') {
    if (/\s/.test(body)) {
      return { path: 'body', message: 'Encode spaces as + or %20, e.g. name=Ann+Lee&remember=1' };
    }
    try {
      for (const pair of body.split('&')) decodeURIComponent(pair.replace(/\+/g, ' '));
      return null;
    } catch {
      return { path: 'body', message: 'A % in the form body must start a %XX escape' };
    }
  }
  return null;
}

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();

const StatusCodeRange = z
  .string()
  .refine(
    (v) => parseStatusRange(v) !== null,
    'Use a code or range between 100 and 599, e.g. 200-299',
  );

const Tag = z
  .string()
  .trim()
  .min(1, 'Tags cannot be empty')
  .max(limits.tagMax, 'Tags are limited to 40 characters');

const common = {
  name: z
    .string()
    .trim()
    .min(1, 'Give the monitor a name')
    .max(limits.nameMax, 'Names are limited to 100 characters'),
  interval: z
    .number()
    .int('Whole seconds only')
    .min(limits.intervalMin, 'Check at most every 10 seconds')
    .max(limits.intervalMax, 'Check at least once a day (86,400 seconds)')
    .default(defaults.interval),
  timeout: z
    .number()
    .int('Whole seconds only')
    .min(limits.timeoutMin, 'The timeout is at least 1 second')
    .max(limits.timeoutMax, 'The timeout is at most 120 seconds')
    .default(defaults.timeout),
  retries: z
    .number()
    .int('Whole numbers only')
    .min(0, 'Retries cannot be negative')
    .max(limits.retriesMax, 'At most 10 retries')
    .default(defaults.retries),
  /** Seconds between checks while a failure is being confirmed; null means the interval. */
  retryInterval: z
    .number()
    .int('Whole seconds only')
    .min(limits.intervalMin, 'Retry at most every 10 seconds')
    .max(limits.intervalMax, 'Retry at least once a day')
    .nullable()
    .default(null),
  degradedThresholdMs: z
    .number()
    .int('Whole milliseconds only')
    .min(1, 'The threshold is at least 1 ms')
    .max(120_000, 'The threshold is at most 120,000 ms')
    .nullable()
    .default(null),
  tags: z.array(Tag).max(limits.tagsMax, 'At most 20 tags').default([]),
  description: z.string().max(2000, 'Descriptions are limited to 2,000 characters').default(''),
  paused: z.boolean().default(false),
  /** When and how this monitor alerts (issue 5); every rule has a default. */
  alerts: AlertRules.prefault({}),
  /**
   * Channels this monitor alerts through. Left out on create: the default channels; left out
   * on update: unchanged.
   */
  channelIds: z
    .array(z.number().int().positive('Choose a channel'))
    .max(50, 'At most 50 channels')
    .optional(),
};

function timeoutBelowInterval(m: { timeout: number; interval: number }, ctx: z.RefinementCtx) {
  if (m.timeout >= m.interval) {
    ctx.addIssue({
      code: 'custom',
      path: ['timeout'],
      message: 'The timeout must be shorter than the interval',
    });
  }
}

export const HttpMonitorInput = z
  .strictObject({
    type: z.literal('http'),
    ...common,
    url: HttpUrl,
    method: HttpMethod.default('GET'),
    headers: RequestHeadersInput,
    bodyType: BodyType.default('none'),
    body: z.string().max(65_536, 'Request bodies are limited to 64 KiB').default(''),
    auth: HttpAuthInput.default({ kind: 'none' }),
    acceptedStatusCodes: z
      .array(StatusCodeRange)
      .min(1, 'Accept at least one status code')
      .max(20, 'At most 20 ranges')
      .default([...defaults.acceptedStatusCodes]),
    followRedirects: z.boolean().default(true),
    maxRedirects: z
      .number()
      .int()
      .min(0, 'At least 0')
      .max(10, 'At most 10 redirects')
      .default(defaults.maxRedirects),
    ipFamily: IpFamily.default('auto'),
    ignoreTls: z.boolean().default(false),
    assertions: Assertions,
    maxBodyBytes: z
      .number({ error: 'Enter a number of bytes' })
      .int('Whole bytes only')
      .min(1024, 'Read at least 1 KiB (1,024 bytes)')
      .max(assertionLimits.bodyBytesMax, 'Read at most 10 MiB (10,485,760 bytes)')
      .default(defaults.maxBodyBytes),
    /** Also watch the registration of the URL's registered domain (RDAP); null: off. */
    domainExpiry: DomainExpiryOption.nullable().default(null),
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    const bad = validBody(m.bodyType, m.body);
    if (bad) ctx.addIssue({ code: 'custom', path: [bad.path], message: bad.message });
    if (m.ipFamily !== 'auto') {
      let host: string;
      try {
        host = new URL(m.url).hostname.replace(/^\[(.*)\]$/, '$1');
      } catch {
        return; // the URL has its own message
      }
      const literal = IPV4.safeParse(host).success
        ? 'ipv4'
        : IPV6.safeParse(host).success
          ? 'ipv6'
          : null;
      if (literal !== null && literal !== m.ipFamily) {
        ctx.addIssue({
          code: 'custom',
          path: ['ipFamily'],
          message: `The URL's address is ${literal === 'ipv4' ? 'IPv4' : 'IPv6'}; choose Automatic or ${literal === 'ipv4' ? 'IPv4' : 'IPv6'}`,
        });
      }
    }
  });

// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, ≤ 253 chars.
const HOSTNAME =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$/;

/** A host name or a bare IPv4/IPv6 address (no brackets, no port). */
export const Host = z
  .string()
  .trim()
  .min(1, 'Enter a host name or IP address')
  .refine(
    (v) =>
      IPV4.safeParse(v).success ||
      IPV6.safeParse(v).success ||
      (HOSTNAME.test(v) && !/^[0-9.]+$/.test(v)),
    'Enter a host name or IP address without scheme or port, e.g. db.example.com or 10.0.0.5',
  );

export const Port = z
  .number({ error: 'Enter a port number' })
  .int('Whole numbers only')
  .min(1, 'Ports are 1 to 65,535')
  .max(65_535, 'Ports are 1 to 65,535');

/**
 * A TCP check: connect to host:port, optionally write `send`, optionally wait (within the
 * timeout) for `expect` to appear in what the peer sends.
 *
 * `send` and `expect` are stored exactly as typed. The check interprets backslash escapes in
 * both before use: `\r`, `\n`, `\t`, `\0`, `\\` and `\xHH` (one byte); any other backslash is
 * kept literally. Text is encoded as UTF-8; received bytes are decoded as latin1 so every byte
 * maps to one character and `\xHH` matches binary banners.
 */
export const TcpMonitorInput = z
  .strictObject({
    type: z.literal('tcp'),
    ...common,
    host: Host,
    port: Port,
    send: z
      .string()
      .max(limits.tcpSendMax, 'What to send is limited to 4,096 characters')
      .default(''),
    expect: z
      .string()
      .max(limits.tcpExpectMax, 'The expected text is limited to 1,000 characters')
      .default(''),
  })
  .superRefine(timeoutBelowInterval);

/** A host name only (no IP address): what DNS resolves, or the name a TLS peer must prove. */
export const HostName = z
  .string()
  .trim()
  .min(1, 'Enter a host name')
  .refine(
    (v) => HOSTNAME.test(v) && !/^[0-9.]+$/.test(v),
    'Enter a host name without scheme or port, e.g. example.com',
  );

/** SPEC §5: the record types a DNS monitor can ask for. */
export const DnsRecordType = z.enum(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA']);
export type DnsRecordType = z.infer<typeof DnsRecordType>;

/** Whether at least one or every expected value must be among the answers. */
export const DnsMatch = z.enum(['any', 'all']);
export type DnsMatch = z.infer<typeof DnsMatch>;

function isResolverAddress(value: string): boolean {
  if (IPV4.safeParse(value).success || IPV6.safeParse(value).success) return true;
  const withPort = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value);
  if (withPort === null) return false;
  const [, v6, v4, port] = withPort;
  const portOk = Number(port) >= 1 && Number(port) <= 65_535;
  return portOk && (v6 !== undefined ? IPV6 : IPV4).safeParse(v6 ?? v4).success;
}

/** A DNS server to ask: `ip`, `ip:port` or `[v6]:port`; empty means the system's resolvers. */
export const ResolverAddress = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || isResolverAddress(v),
    'Enter an IP address, optionally with a port: 10.0.0.53, 10.0.0.53:5353 or [fd00::53]:53',
  );

const MX_VALUE = /^\d{1,5}\s+\S+$/;
const CAA_VALUE = /^\d{1,3}\s+[A-Za-z0-9]+\s+\S.*$/;

/** Per record type, what an expected value must look like (see the formats on DnsMonitorInput). */
const expectedFormat: Partial<Record<DnsRecordType, { ok(v: string): boolean; message: string }>> =
  {
    A: {
      ok: (v) => IPV4.safeParse(v).success,
      message: 'A records are IPv4 addresses, e.g. 10.0.0.5',
    },
    AAAA: {
      ok: (v) => IPV6.safeParse(v).success,
      message: 'AAAA records are IPv6 addresses, e.g. 2001:db8::1',
    },
    CNAME: { ok: (v) => HOSTNAME.test(v), message: 'Enter a host name, e.g. target.example.com' },
    NS: { ok: (v) => HOSTNAME.test(v), message: 'Enter a host name, e.g. ns1.example.com' },
    MX: {
      ok: (v) => MX_VALUE.test(v),
      message: 'Write priority then host, e.g. 10 mail.example.com',
    },
    SOA: {
      ok: (v) => /^\S+\s+\d{1,10}$/.test(v),
      message: 'Write the primary name server then the serial, e.g. ns1.example.com 2026010101',
    },
    CAA: {
      ok: (v) => CAA_VALUE.test(v),
      message: 'Write flags, tag and value, e.g. 0 issue "letsencrypt.org"',
    },
  };

/**
 * A DNS check: ask `resolver` (or the system's) for `recordType` records of `host` and compare
 * the answers with `expected`. Values are compared normalised: names without case or trailing
 * dot, IPv6 in its shortest form, MX as `priority exchange`, TXT with its chunks joined, SOA as
 * `primary serial`, CAA as `flags tag "value"`. No expected values: any answer is up.
 */
export const DnsMonitorInput = z
  .strictObject({
    type: z.literal('dns'),
    ...common,
    host: HostName,
    recordType: DnsRecordType.default('A'),
    resolver: ResolverAddress.default(''),
    expected: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'Expected values cannot be empty')
          .max(limits.dnsValueMax, 'Expected values are limited to 1,000 characters'),
      )
      .max(limits.dnsExpectedMax, 'At most 20 expected values')
      .default([]),
    match: DnsMatch.default('any'),
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    const format = expectedFormat[m.recordType];
    if (format === undefined) return;
    m.expected.forEach((value, i) => {
      // Empty values already have their own message.
      if (value !== '' && !format.ok(value)) {
        ctx.addIssue({ code: 'custom', path: ['expected', i], message: format.message });
      }
    });
  });

/**
 * A TLS check: handshake with host:port and judge the certificate — expiry (down when expired,
 * degraded within `warnDays`), the name (`servername`, else the host) and, unless `ignoreTrust`,
 * the chain.
 */
export const TlsMonitorInput = z
  .strictObject({
    type: z.literal('tls'),
    ...common,
    host: Host,
    port: Port.default(defaults.tlsPort),
    /** The SNI name and the name the certificate must be valid for; empty: the host (if a name). */
    servername: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || HostName.safeParse(v).success,
        'Enter a host name, e.g. www.example.com, or leave empty to use the host',
      )
      .default(''),
    warnDays: z
      .number({ error: 'Enter a number of days' })
      .int('Whole days only')
      .min(limits.tlsWarnDaysMin, 'Warn at least 1 day ahead')
      .max(limits.tlsWarnDaysMax, 'Warn at most 365 days ahead')
      .default(defaults.tlsWarnDays),
    ignoreTrust: z.boolean().default(false),
  })
  .superRefine(timeoutBelowInterval);

/**
 * A push (heartbeat) monitor: nothing is fetched; a job calls its push URL at least every
 * `interval` seconds, and the monitor counts a miss when `graceSeconds` more pass without a
 * ping. The URL's token is made by the server, never sent. `timeout` is not used, so it is
 * not held below the interval.
 */
export const PushMonitorInput = z.strictObject({
  type: z.literal('push'),
  ...common,
  graceSeconds: z
    .number({ error: 'Enter the grace period in seconds' })
    .int('Whole seconds only')
    .min(0, 'The grace period cannot be negative')
    .max(limits.graceMax, 'The grace period is at most a day (86,400 seconds)')
    .default(defaults.graceSeconds),
  /** When pings are due: every `interval` (default), or on a cron / OnCalendar schedule. */
  schedule: HeartbeatSchedule.default({ kind: 'interval' }),
});

/**
 * A domain expiry check: look up the registration of `domain`'s registered domain through
 * RDAP (the registry named for its TLD in IANA's bootstrap file) and judge its expiry like a
 * certificate's: down once expired, degraded within `warnDays`. Lookups are cached, so the
 * registry is asked a few times a day whatever the interval.
 */
export const DomainMonitorInput = z
  .strictObject({
    type: z.literal('domain'),
    ...common,
    interval: common.interval.default(3600),
    domain: HostName,
    warnDays: DomainExpiryWarnDays,
  })
  .superRefine(timeoutBelowInterval);
const Selector = z
  .string()
  .trim()
  .max(limits.selectorMax, 'Selectors are limited to 500 characters');

/**
 * The site's basic-auth credential. The password is write-only: left out of an update while
 * basic auth stays on, the stored one is kept; `''` means none.
 */
export const BasicAuthInput = z.strictObject({
  username: z.string().min(1, 'Enter the user name').max(200, 'At most 200 characters'),
  password: z.string().max(200, 'At most 200 characters').optional(),
});
export type BasicAuthInput = z.infer<typeof BasicAuthInput>;

/** Basic auth as the API returns it: whether a password is stored, never the password. */
export const BasicAuthView = z.object({ username: z.string(), hasSecret: z.boolean() });
export type BasicAuthView = z.infer<typeof BasicAuthView>;

/**
 * A browser check: load `url` in Chromium at a viewport preset, wait for the page to be
 * delivered (load event, network idle or a selector visible), then look for the required text
 * and element. `degradedThresholdMs` applies to the load time, `lcpThresholdMs` to Largest
 * Contentful Paint. Slower to run than the other types, so at most once a minute.
 */
export const BrowserMonitorInput = z
  .strictObject({
    type: z.literal('browser'),
    ...common,
    interval: z
      .number()
      .int('Whole seconds only')
      .min(limits.browserIntervalMin, 'Browser checks run at most every 60 seconds')
      .max(limits.intervalMax, 'Check at least once a day (86,400 seconds)')
      .default(300),
    timeout: common.timeout.default(30),
    url: HttpUrl,
    viewport: BrowserViewport.default('desktop'),
    waitFor: BrowserWaitFor.default('load'),
    waitSelector: Selector.default(''),
    requiredText: z
      .string()
      .max(limits.keywordMax, 'The required text is limited to 1,000 characters')
      .default(''),
    requiredSelector: Selector.default(''),
    lcpThresholdMs: z
      .number()
      .int('Whole milliseconds only')
      .min(1, 'The threshold is at least 1 ms')
      .max(120_000, 'The threshold is at most 120,000 ms')
      .nullable()
      .default(null),
    /** An uncaught exception takes the monitor down; off: it is only reported. */
    failOnJsError: z.boolean().default(true),
    basicAuth: BasicAuthInput.nullable().default(null),
    headers: RequestHeadersInput,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    if (m.waitFor === 'selector' && m.waitSelector === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['waitSelector'],
        message: 'Enter the CSS selector to wait for, e.g. #app .ready',
      });
    }
  });

/**
 * A database password as given: write-only, stored sealed and never returned. Left out of an
 * update, the stored one is kept; `''` means none.
 */
const DatabasePassword = z
  .string()
  .max(1024, 'Passwords are limited to 1,024 characters')
  .refine(NO_CONTROL, 'Passwords cannot contain control characters')
  .optional();

const DatabaseUser = z
  .string()
  .trim()
  .max(256, 'User names are limited to 256 characters')
  .refine(NO_CONTROL, 'User names cannot contain control characters');

/**
 * TLS of a database connection, judged like a TLS monitor's: down when the certificate has
 * expired, is for another name or (unless `ignoreTrust`) is untrusted; degraded within
 * `warnDays` of expiry.
 */
const databaseTls = {
  tls: z.boolean().default(false),
  ignoreTrust: z.boolean().default(false),
  warnDays: z
    .number({ error: 'Enter a number of days' })
    .int('Whole days only')
    .min(limits.tlsWarnDaysMin, 'Warn at least 1 day ahead')
    .max(limits.tlsWarnDaysMax, 'Warn at most 365 days ahead')
    .default(defaults.tlsWarnDays),
};

const Expected = z
  .string()
  .max(limits.keywordMax, 'The expected value is limited to 1,000 characters')
  .default('');

const SqlQuery = z
  .string()
  .trim()
  .max(limits.dbQueryMax, 'The query is limited to 2,000 characters')
  .default('');

function expectedNeedsQuery(
  what: 'query' | 'command',
): (m: { expected: string; query?: string; command?: string }, ctx: z.RefinementCtx) => void {
  return (m, ctx) => {
    if (m.expected !== '' && (m[what] ?? '') === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['expected'],
        message: `Enter the ${what} whose first value is compared, or clear the expected value`,
      });
    }
  };
}

/**
 * A PostgreSQL check: connect (optionally over TLS), authenticate as `username`, and run
 * `query` (or `SELECT 1`) in a read-only transaction bounded by the timeout. With `expected`,
 * the first column of the first row, as text, must equal it.
 */
export const PostgresMonitorInput = z
  .strictObject({
    type: z.literal('postgres'),
    ...common,
    host: Host,
    port: Port.default(defaults.postgresPort),
    database: z.string().trim().max(63, 'Database names are at most 63 characters').default(''),
    username: DatabaseUser.min(1, 'Enter the user name'),
    password: DatabasePassword,
    ...databaseTls,
    query: SqlQuery,
    expected: Expected,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine(expectedNeedsQuery('query'));

/**
 * A MySQL/MariaDB check: connect (optionally over TLS), authenticate, and run `query` (or
 * `SELECT 1`) in a read-only session whose statements are bounded by the timeout. With
 * `expected`, the first column of the first row, as text, must equal it.
 */
export const MysqlMonitorInput = z
  .strictObject({
    type: z.literal('mysql'),
    ...common,
    host: Host,
    port: Port.default(defaults.mysqlPort),
    database: z.string().trim().max(64, 'Database names are at most 64 characters').default(''),
    username: DatabaseUser.min(1, 'Enter the user name'),
    password: DatabasePassword,
    ...databaseTls,
    query: SqlQuery,
    expected: Expected,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine(expectedNeedsQuery('query'));

/**
 * Redis commands a monitor may run: reads only, so a typed command can never change data
 * (Redis has no read-only session for a plain client).
 */
export const redisReadCommands = [
  'PING',
  'ECHO',
  'GET',
  'EXISTS',
  'STRLEN',
  'TYPE',
  'TTL',
  'PTTL',
  'HGET',
  'HLEN',
  'HEXISTS',
  'LLEN',
  'LINDEX',
  'SCARD',
  'SISMEMBER',
  'ZCARD',
  'ZSCORE',
  'XLEN',
  'DBSIZE',
  'INFO',
  'ROLE',
  'TIME',
] as const;

/** A command line split on spaces, with "double quotes" around arguments that hold one. */
export function splitRedisCommand(line: string): string[] | null {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let rest = line.trim();
  let match: RegExpExecArray | null;
  while ((match = re.exec(rest)) !== null) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? ''));
  }
  rest = rest.replace(re, '').trim();
  return rest === '' ? words : null;
}

const RedisCommand = z
  .string()
  .trim()
  .max(limits.dbQueryMax, 'The command is limited to 2,000 characters')
  .refine((v) => v === '' || splitRedisCommand(v) !== null, 'Close the quotes of each argument')
  .refine(
    (v) => {
      const name = v === '' ? 'PING' : (splitRedisCommand(v)?.[0] ?? '').toUpperCase();
      return (redisReadCommands as readonly string[]).includes(name);
    },
    `Only read commands can be run: ${redisReadCommands.join(', ')}`,
  )
  .default('');

/**
 * A Redis check: connect (optionally over TLS), authenticate (`username` for ACL users, empty
 * for the default user), select `database`, and run `command` (or `PING`), which must be one of
 * the read commands. With `expected`, the reply (its first element for a list) must equal it.
 */
export const RedisMonitorInput = z
  .strictObject({
    type: z.literal('redis'),
    ...common,
    host: Host,
    port: Port.default(defaults.redisPort),
    database: z
      .number({ error: 'Enter a database number' })
      .int('Whole numbers only')
      .min(0, 'Database numbers start at 0')
      .max(255, 'Database numbers are at most 255')
      .default(0),
    username: DatabaseUser.default(''),
    password: DatabasePassword,
    ...databaseTls,
    command: RedisCommand,
    expected: Expected,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine(expectedNeedsQuery('command'));

/**
 * A MongoDB check: connect (optionally over TLS), authenticate against `database` when a user
 * is given, and run the `ping` command.
 */
export const MongodbMonitorInput = z
  .strictObject({
    type: z.literal('mongodb'),
    ...common,
    host: Host,
    port: Port.default(defaults.mongodbPort),
    database: z
      .string()
      .trim()
      .max(64, 'Database names are at most 64 characters')
      .refine((v) => !/[/\\. "$]/.test(v), 'Database names cannot contain / \\ . " $ or spaces')
      .default('admin'),
    username: DatabaseUser.default(''),
    password: DatabasePassword,
    ...databaseTls,
  })
  .superRefine(timeoutBelowInterval);

/**
 * A ping check: `count` ICMP echo requests `packetIntervalMs` apart to `host` (IPv4 or IPv6);
 * every reply must come within the timeout. All lost is down; losing more than
 * `lossDegradedPercent` of them, or an average round trip above `degradedThresholdMs`, degrades.
 */
export const PingMonitorInput = z
  .strictObject({
    type: z.literal('ping'),
    ...common,
    host: Host,
    ipFamily: IpFamily.default('auto'),
    count: z
      .number({ error: 'Enter how many packets to send' })
      .int('Whole packets only')
      .min(1, 'Send at least 1 packet')
      .max(limits.pingCountMax, 'Send at most 20 packets')
      .default(defaults.pingCount),
    packetIntervalMs: z
      .number({ error: 'Enter the milliseconds between packets' })
      .int('Whole milliseconds only')
      // The system ping refuses faster for users without privileges.
      .min(limits.pingIntervalMinMs, 'Packets are at least 200 ms apart')
      .max(limits.pingIntervalMaxMs, 'Packets are at most 10,000 ms apart')
      .default(defaults.pingIntervalMs),
    lossDegradedPercent: z
      .number({ error: 'Enter a percentage' })
      .int('Whole percent only')
      .min(0, 'At least 0 %')
      .max(99, 'At most 99 % (losing every packet is down)')
      .default(0),
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    // A count or gap out of range already has its own message.
    const inRange =
      m.count <= limits.pingCountMax &&
      m.packetIntervalMs >= limits.pingIntervalMinMs &&
      m.packetIntervalMs <= limits.pingIntervalMaxMs;
    if (inRange && (m.count - 1) * m.packetIntervalMs >= m.timeout * 1000) {
      ctx.addIssue({
        code: 'custom',
        path: ['count'],
        message:
          'The packets must all be sent within the timeout: fewer packets or a longer timeout',
      });
    }
  });

/** How a UDP payload and its expected reply are written: text with escapes, or hex bytes. */
export const PayloadFormat = z.enum(['text', 'hex']);
export type PayloadFormat = z.infer<typeof PayloadFormat>;

const HEX_BYTES = /^(?:\s*[0-9A-Fa-f]{2})*\s*$/;

/**
 * A UDP check: send `send` to host:port and wait (within the timeout) for a reply that contains
 * `expect` (any reply when empty). Text takes the TCP check's escapes (`\r`, `\n`, `\xHH`…);
 * hex is pairs of digits, spaces allowed (`de ad be ef`).
 */
export const UdpMonitorInput = z
  .strictObject({
    type: z.literal('udp'),
    ...common,
    host: Host,
    port: Port,
    format: PayloadFormat.default('text'),
    send: z
      .string()
      .min(1, 'Enter what to send: a UDP service answers a datagram')
      .max(limits.tcpSendMax, 'What to send is limited to 4,096 characters'),
    expect: z
      .string()
      .max(limits.tcpExpectMax, 'The expected reply is limited to 1,000 characters')
      .default(''),
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    if (m.format !== 'hex') return;
    for (const key of ['send', 'expect'] as const) {
      if (!HEX_BYTES.test(m[key])) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'Write bytes as pairs of hex digits, e.g. de ad be ef',
        });
      }
    }
  });

export const WebSocketUrl = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .max(2048, 'URLs longer than 2,048 characters are not supported')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'ws:' || url.protocol === 'wss:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Enter a full ws:// or wss:// URL with a host, e.g. wss://example.com/socket');

/** What a WebSocket reply is judged by: nothing (the upgrade is enough), text, or a JSON path. */
export const WebSocketExpect = z.enum(['none', 'keyword', 'json']);
export type WebSocketExpect = z.infer<typeof WebSocketExpect>;

/**
 * A WebSocket check: upgrade at `url`, optionally send `send` and wait for a message that
 * contains `expectValue` (keyword) or whose JSON value at `expectPath` equals it (json), then
 * close with 1000 and expect the close handshake back. A close from the server with a code other
 * than 1000 is down.
 */
export const WebSocketMonitorInput = z
  .strictObject({
    type: z.literal('websocket'),
    ...common,
    url: WebSocketUrl,
    send: z.string().max(limits.tcpSendMax, 'Messages are limited to 4,096 characters').default(''),
    expectKind: WebSocketExpect.default('none'),
    expectPath: z.string().trim().max(200, 'Paths are limited to 200 characters').default(''),
    expectValue: z
      .string()
      .max(limits.tcpExpectMax, 'The expected value is limited to 1,000 characters')
      .default(''),
    /** Accept an untrusted or misnamed certificate on wss:// (expiry is still shown). */
    ignoreTls: z.boolean().default(false),
    /** Headers of the upgrade request (e.g. Authorization); secret ones are write-only. */
    headers: RequestHeadersInput,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    if (m.expectKind === 'keyword' && m.expectValue === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['expectValue'],
        message: 'Enter the text the reply must contain',
      });
    }
    if (m.expectKind === 'json' && parseJsonPath(m.expectPath) === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['expectPath'],
        message: "Use $ then .name, ['name'], [0] or [*] steps, e.g. $.status or $.items[0].ok",
      });
    }
  });

/**
 * A gRPC check: call the standard health service (`grpc.health.v1.Health/Check`) at host:port
 * for `service` (empty: the whole server) and expect SERVING. With `tls` the certificate is
 * captured and judged as the TLS check does, unless `ignoreTls`.
 */
export const GrpcMonitorInput = z
  .strictObject({
    type: z.literal('grpc'),
    ...common,
    host: Host,
    port: Port,
    service: z
      .string()
      .trim()
      .max(200, 'Service names are limited to 200 characters')
      .refine(
        (v) => /^[A-Za-z0-9_./-]*$/.test(v),
        'Service names are letters, digits and . _ / - only, e.g. my.package.Orders',
      )
      .default(''),
    tls: z.boolean().default(false),
    ignoreTls: z.boolean().default(false),
    /** Metadata sent with the call (e.g. authorization); secret values are write-only. */
    headers: GrpcMetadataInput,
  })
  .superRefine(timeoutBelowInterval);

/** What an MQTT check does once connected (see MqttMonitorInput). */
export const MqttMode = z.enum(['connect', 'subscribe', 'roundtrip']);
export type MqttMode = z.infer<typeof MqttMode>;

/** How a subscribed message is judged: its payload contains `expected`, or a JSON path's value equals it. */
export const MqttMatch = z.enum(['keyword', 'json']);
export type MqttMatch = z.infer<typeof MqttMatch>;

const MqttTopic = z
  .string()
  .trim()
  .max(1024, 'Topics are limited to 1,024 characters')
  .refine((v) => !v.includes('\0'), 'Topics cannot contain a NUL character')
  .default('');

/**
 * An MQTT check: connect (optionally over TLS, judged like a TLS monitor) and authenticate.
 * `subscribe` then waits within the timeout for a message on `topic` (wildcards allowed) whose
 * payload contains `expected` (`match: keyword`; empty: any message) or whose JSON value at
 * `jsonPath` equals it (`match: json`). `roundtrip` subscribes to `topic` (no wildcards),
 * publishes a unique probe there and waits for it to come back.
 */
export const MqttMonitorInput = z
  .strictObject({
    type: z.literal('mqtt'),
    ...common,
    host: Host,
    port: Port.default(defaults.mqttPort),
    username: DatabaseUser.default(''),
    password: DatabasePassword,
    ...databaseTls,
    mode: MqttMode.default('connect'),
    topic: MqttTopic,
    match: MqttMatch.default('keyword'),
    jsonPath: z
      .string()
      .trim()
      .max(500, 'JSON paths are limited to 500 characters')
      .refine(
        (v) => v === '' || parseJsonPath(v) !== null,
        'Write a JSON path such as $.status or $.items[0].ok',
      )
      .default(''),
    expected: Expected,
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    if (m.mode !== 'connect' && m.topic === '') {
      ctx.addIssue({ code: 'custom', path: ['topic'], message: 'Enter the topic to listen on' });
    }
    if (m.mode === 'roundtrip' && /[+#]/.test(m.topic)) {
      ctx.addIssue({
        code: 'custom',
        path: ['topic'],
        message: 'The probe is published to this topic, so it cannot hold the wildcards + or #',
      });
    }
    if (m.mode === 'subscribe' && m.match === 'json' && m.jsonPath === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['jsonPath'],
        message: 'Enter the JSON path whose value is compared, e.g. $.status',
      });
    }
  });

/**
 * A RabbitMQ (AMQP 0-9-1) check: connect (optionally over TLS), authenticate, open `vhost`
 * and a channel. With `queue`, the queue must exist (passive declare: it is never created) and,
 * with `maxDepth`, hold at most that many ready messages.
 */
export const AmqpMonitorInput = z
  .strictObject({
    type: z.literal('amqp'),
    ...common,
    host: Host,
    port: Port.default(defaults.amqpPort),
    vhost: z
      .string()
      .max(255, 'Virtual host names are limited to 255 characters')
      .refine(NO_CONTROL, 'Virtual host names cannot contain control characters')
      .default('/'),
    username: DatabaseUser.min(1, 'Enter the user name'),
    password: DatabasePassword,
    ...databaseTls,
    queue: z
      .string()
      .trim()
      .max(255, 'Queue names are limited to 255 characters')
      .refine(NO_CONTROL, 'Queue names cannot contain control characters')
      .default(''),
    maxDepth: z
      .number({ error: 'Enter a number of messages' })
      .int('Whole messages only')
      .min(0, 'The depth cannot be negative')
      .max(1_000_000_000, 'At most 1,000,000,000 messages')
      .nullable()
      .default(null),
  })
  .superRefine(timeoutBelowInterval)
  .superRefine((m, ctx) => {
    if (m.maxDepth !== null && m.queue === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['queue'],
        message: 'Enter the queue whose depth is checked, or clear the maximum depth',
      });
    }
  });

/**
 * How a mail check secures its connection: `starttls` asks for STARTTLS after the greeting and
 * fails when it is not offered; `tls` is TLS from the first byte (port 465); `none` stays in
 * plain text.
 */
export const MailSecurity = z.enum(['starttls', 'tls', 'none']);
export type MailSecurity = z.infer<typeof MailSecurity>;

/**
 * An SMTP check: read the 220 greeting, say EHLO, and (per `security`) upgrade with STARTTLS or
 * speak TLS from the start, judging the certificate like a TLS monitor. Every name in
 * `capabilities` (e.g. `AUTH`, `SIZE`, `8BITMIME`) must be among the EHLO answer's extensions.
 * No mail is sent: the check ends with QUIT.
 */
export const SmtpMonitorInput = z
  .strictObject({
    type: z.literal('smtp'),
    ...common,
    host: Host,
    port: Port.default(defaults.smtpPort),
    security: MailSecurity.default('starttls'),
    ignoreTrust: databaseTls.ignoreTrust,
    warnDays: databaseTls.warnDays,
    /** The name given in EHLO; empty: `pagewatch.invalid`. */
    ehloName: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || HostName.safeParse(v).success,
        'Enter a host name, e.g. monitor.example.com, or leave empty',
      )
      .default(''),
    capabilities: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'Capabilities are words such as AUTH or 8BITMIME'),
      )
      .max(20, 'At most 20 capabilities')
      .default([]),
  })
  .superRefine(timeoutBelowInterval);

/**
 * A mailbox server check (IMAP, POP3): read the greeting and (per `security`) upgrade with
 * STARTTLS (`a1 STARTTLS` / `STLS`) or speak TLS from the start (993 / 995), judging the
 * certificate like a TLS monitor. No login is tried.
 */
function mailboxInput<T extends 'imap' | 'pop3'>(type: T, port: number) {
  return z
    .strictObject({
      type: z.literal(type),
      ...common,
      host: Host,
      port: Port.default(port),
      security: MailSecurity.default('starttls'),
      ignoreTrust: databaseTls.ignoreTrust,
      warnDays: databaseTls.warnDays,
    })
    .superRefine(timeoutBelowInterval);
}

export const ImapMonitorInput = mailboxInput('imap', 143);
export const Pop3MonitorInput = mailboxInput('pop3', 110);

/** How a group monitor's status follows its members (ADR 47). */
export const GroupRule = z.enum(['all_up', 'any_down', 'percent_up']);
export type GroupRule = z.infer<typeof GroupRule>;

export const groupLimits = { membersMax: 100 } as const;

/**
 * A group monitor: its status is computed from its members' current statuses by `rule`
 * (paused and maintenance members are left out). Members are other monitors by id; a group may
 * contain groups, never itself (the server refuses cycles with the cycle named).
 */
export const GroupMonitorInput = z
  .strictObject({
    type: z.literal('group'),
    ...common,
    interval: common.interval.default(60),
    members: z
      .array(z.number().int().positive('A member is a monitor id'))
      .min(1, 'Choose at least one member')
      .max(groupLimits.membersMax, `A group has at most ${groupLimits.membersMax} members`)
      .refine((ids) => new Set(ids).size === ids.length, 'A monitor is a member only once'),
    rule: GroupRule.default('any_down'),
    /** For `percent_up`: the least share of counted members that must be up (1–100). */
    minUpPercent: z
      .number()
      .int('Enter a whole percentage')
      .min(1, 'At least 1 %')
      .max(100, 'At most 100 %')
      .default(100),
  })
  .superRefine(timeoutBelowInterval);

/** What a client sends to create or replace a monitor. */
export const MonitorInput = z.discriminatedUnion(
  'type',
  [
    HttpMonitorInput,
    DomainMonitorInput,
    TcpMonitorInput,
    DnsMonitorInput,
    TlsMonitorInput,
    PushMonitorInput,
    BrowserMonitorInput,
    PingMonitorInput,
    UdpMonitorInput,
    WebSocketMonitorInput,
    GrpcMonitorInput,
    PostgresMonitorInput,
    MysqlMonitorInput,
    RedisMonitorInput,
    MongodbMonitorInput,
    MqttMonitorInput,
    AmqpMonitorInput,
    SmtpMonitorInput,
    ImapMonitorInput,
    Pop3MonitorInput,
    GroupMonitorInput,
  ],
  { error: 'Choose a monitor type' },
);
export type MonitorInput = z.infer<typeof MonitorInput>;
/** The form's shape before defaults are applied. */
export type MonitorDraft = z.input<typeof MonitorInput>;

export const LastCheck = z.object({
  at: z.iso.datetime(),
  outcome: CheckOutcome,
  latencyMs: z.number().nullable(),
  httpStatus: z.number().int().nullable(),
  errorCode: CheckErrorCode.nullable(),
  errorMessage: z.string().nullable(),
});
export type LastCheck = z.infer<typeof LastCheck>;

const monitorState = {
  id: z.number().int(),
  status: MonitorStatus,
  statusChangedAt: z.iso.datetime().nullable(),
  lastCheck: LastCheck.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/**
 * The latest checks, oldest first, for a sparkline. Compact because the dashboard carries
 * thirty per monitor for thousands of monitors: one letter per outcome (u up, w degraded,
 * d down) and latencies in ms rounded to 0.1 (null when the check delivered nothing).
 */
export const RecentChecks = z.object({
  outcomes: z.string().regex(/^[uwd]*$/),
  latencyMs: z.array(z.number().nullable()),
});
export type RecentChecks = z.infer<typeof RecentChecks>;

const monitorCommon = {
  ...monitorState,
  name: z.string(),
  interval: z.number().int(),
  timeout: z.number().int(),
  retries: z.number().int(),
  retryInterval: z.number().int().nullable(),
  degradedThresholdMs: z.number().int().nullable(),
  tags: z.array(z.string()),
  description: z.string(),
  paused: z.boolean(),
  /** The certificate and assertion results of the last check; null before the first. */
  lastDetails: CheckDetails.nullable(),
  alerts: AlertRules,
  /** Channels this monitor alerts through. */
  channelIds: z.array(z.number().int()),
};

export const HttpMonitor = z.object({
  ...monitorCommon,
  type: z.literal('http'),
  url: z.string(),
  method: HttpMethod,
  headers: z.array(RequestHeaderView),
  bodyType: BodyType,
  body: z.string(),
  auth: HttpAuthView,
  acceptedStatusCodes: z.array(z.string()),
  followRedirects: z.boolean(),
  maxRedirects: z.number().int(),
  ipFamily: IpFamily,
  ignoreTls: z.boolean(),
  assertions: z.array(Assertion),
  maxBodyBytes: z.number().int(),
  domainExpiry: DomainExpiryOption.nullable(),
});
export type HttpMonitor = z.infer<typeof HttpMonitor>;

export const TcpMonitor = z.object({
  ...monitorCommon,
  type: z.literal('tcp'),
  host: z.string(),
  port: z.number().int(),
  send: z.string(),
  expect: z.string(),
});
export type TcpMonitor = z.infer<typeof TcpMonitor>;

export const DnsMonitor = z.object({
  ...monitorCommon,
  type: z.literal('dns'),
  host: z.string(),
  recordType: DnsRecordType,
  resolver: z.string(),
  expected: z.array(z.string()),
  match: DnsMatch,
});
export type DnsMonitor = z.infer<typeof DnsMonitor>;

export const TlsMonitor = z.object({
  ...monitorCommon,
  type: z.literal('tls'),
  host: z.string(),
  port: z.number().int(),
  servername: z.string(),
  warnDays: z.number().int(),
  ignoreTrust: z.boolean(),
});
export type TlsMonitor = z.infer<typeof TlsMonitor>;

export const PushMonitor = z.object({
  ...monitorCommon,
  type: z.literal('push'),
  graceSeconds: z.number().int(),
  /** The secret of the push URL; null for viewers, who may not send pings (SPEC §6). */
  pushToken: z.string().nullable(),
  /**
   * The push URL: absolute when the server knows its public URL (PAGEWATCH_PUBLIC_URL),
   * otherwise the path, to resolve against the app's origin. Null when pushToken is.
   */
  pushUrl: z.string().nullable(),
  /** The token's first four characters, shown to everyone to tell tokens apart. */
  pushTokenHint: z.string(),
  /** When the last ping arrived; null before the first. */
  lastPingAt: z.iso.datetime().nullable(),
  schedule: HeartbeatSchedule,
  /** When the next ping is expected (the grace period runs from then); null when unknown. */
  nextPingExpectedAt: z.iso.datetime().nullable(),
  /** How long the last reported run took, ms (a `/start` ping, or `ping=`); null when unknown. */
  lastRunMs: z.number().nullable(),
});
export type PushMonitor = z.infer<typeof PushMonitor>;

export const DomainMonitor = z.object({
  ...monitorCommon,
  type: z.literal('domain'),
  domain: z.string(),
  warnDays: z.number().int(),
});
export type DomainMonitor = z.infer<typeof DomainMonitor>;

export const BrowserMonitor = z.object({
  ...monitorCommon,
  type: z.literal('browser'),
  url: z.string(),
  viewport: BrowserViewport,
  waitFor: BrowserWaitFor,
  waitSelector: z.string(),
  requiredText: z.string(),
  requiredSelector: z.string(),
  lcpThresholdMs: z.number().int().nullable(),
  failOnJsError: z.boolean(),
  basicAuth: BasicAuthView.nullable(),
  headers: z.array(RequestHeaderView),
});
export type BrowserMonitor = z.infer<typeof BrowserMonitor>;

export const PingMonitor = z.object({
  ...monitorCommon,
  type: z.literal('ping'),
  host: z.string(),
  ipFamily: IpFamily,
  count: z.number().int(),
  packetIntervalMs: z.number().int(),
  lossDegradedPercent: z.number().int(),
});
export type PingMonitor = z.infer<typeof PingMonitor>;

export const UdpMonitor = z.object({
  ...monitorCommon,
  type: z.literal('udp'),
  host: z.string(),
  port: z.number().int(),
  format: PayloadFormat,
  send: z.string(),
  expect: z.string(),
});
export type UdpMonitor = z.infer<typeof UdpMonitor>;

export const WebSocketMonitor = z.object({
  ...monitorCommon,
  type: z.literal('websocket'),
  url: z.string(),
  send: z.string(),
  expectKind: WebSocketExpect,
  expectPath: z.string(),
  expectValue: z.string(),
  ignoreTls: z.boolean(),
  headers: z.array(RequestHeaderView),
});
export type WebSocketMonitor = z.infer<typeof WebSocketMonitor>;

export const GrpcMonitor = z.object({
  ...monitorCommon,
  type: z.literal('grpc'),
  host: z.string(),
  port: z.number().int(),
  service: z.string(),
  tls: z.boolean(),
  ignoreTls: z.boolean(),
  headers: z.array(RequestHeaderView),
});
export type GrpcMonitor = z.infer<typeof GrpcMonitor>;

/** A database connection as the API returns it: whether a password is stored, never the password. */
const databaseView = {
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  hasPassword: z.boolean(),
  tls: z.boolean(),
  ignoreTrust: z.boolean(),
  warnDays: z.number().int(),
};

export const PostgresMonitor = z.object({
  ...monitorCommon,
  type: z.literal('postgres'),
  ...databaseView,
  database: z.string(),
  query: z.string(),
  expected: z.string(),
});
export type PostgresMonitor = z.infer<typeof PostgresMonitor>;

export const MysqlMonitor = z.object({
  ...monitorCommon,
  type: z.literal('mysql'),
  ...databaseView,
  database: z.string(),
  query: z.string(),
  expected: z.string(),
});
export type MysqlMonitor = z.infer<typeof MysqlMonitor>;

export const RedisMonitor = z.object({
  ...monitorCommon,
  type: z.literal('redis'),
  ...databaseView,
  database: z.number().int(),
  command: z.string(),
  expected: z.string(),
});
export type RedisMonitor = z.infer<typeof RedisMonitor>;

export const MongodbMonitor = z.object({
  ...monitorCommon,
  type: z.literal('mongodb'),
  ...databaseView,
  database: z.string(),
});
export type MongodbMonitor = z.infer<typeof MongodbMonitor>;

export const MqttMonitor = z.object({
  ...monitorCommon,
  type: z.literal('mqtt'),
  ...databaseView,
  mode: MqttMode,
  topic: z.string(),
  match: MqttMatch,
  jsonPath: z.string(),
  expected: z.string(),
});
export type MqttMonitor = z.infer<typeof MqttMonitor>;

export const AmqpMonitor = z.object({
  ...monitorCommon,
  type: z.literal('amqp'),
  ...databaseView,
  vhost: z.string(),
  queue: z.string(),
  maxDepth: z.number().int().nullable(),
});
export type AmqpMonitor = z.infer<typeof AmqpMonitor>;

export const SmtpMonitor = z.object({
  ...monitorCommon,
  type: z.literal('smtp'),
  host: z.string(),
  port: z.number().int(),
  security: MailSecurity,
  ignoreTrust: z.boolean(),
  warnDays: z.number().int(),
  ehloName: z.string(),
  capabilities: z.array(z.string()),
});
export type SmtpMonitor = z.infer<typeof SmtpMonitor>;

const mailboxView = {
  ...monitorCommon,
  host: z.string(),
  port: z.number().int(),
  security: MailSecurity,
  ignoreTrust: z.boolean(),
  warnDays: z.number().int(),
};

export const ImapMonitor = z.object({ ...mailboxView, type: z.literal('imap') });
export type ImapMonitor = z.infer<typeof ImapMonitor>;

export const Pop3Monitor = z.object({ ...mailboxView, type: z.literal('pop3') });
export type Pop3Monitor = z.infer<typeof Pop3Monitor>;

export const GroupMonitor = z.object({
  ...monitorCommon,
  type: z.literal('group'),
  members: z.array(z.number().int()),
  rule: GroupRule,
  minUpPercent: z.number().int(),
});
export type GroupMonitor = z.infer<typeof GroupMonitor>;

/** The full monitor: common fields and state plus its type's settings. */
export const Monitor = z.discriminatedUnion('type', [
  HttpMonitor,
  DomainMonitor,
  TcpMonitor,
  DnsMonitor,
  TlsMonitor,
  PushMonitor,
  BrowserMonitor,
  PingMonitor,
  UdpMonitor,
  WebSocketMonitor,
  GrpcMonitor,
  PostgresMonitor,
  MysqlMonitor,
  RedisMonitor,
  MongodbMonitor,
  MqttMonitor,
  AmqpMonitor,
  SmtpMonitor,
  ImapMonitor,
  Pop3Monitor,
  GroupMonitor,
]);
export type Monitor = z.infer<typeof Monitor>;

/** One dashboard row. */
export const MonitorSummary = z.object({
  ...monitorState,
  type: MonitorType,
  name: z.string(),
  target: z.string(),
  interval: z.number().int(),
  tags: z.array(z.string()),
  paused: z.boolean(),
  /** Percent of delivered checks in the last 24 hours; null without checks. */
  uptime24h: z.number().nullable(),
  recent: RecentChecks,
});
export type MonitorSummary = z.infer<typeof MonitorSummary>;

export const MonitorList = z.object({
  items: z.array(MonitorSummary),
  counts: z.record(MonitorStatus, z.number().int()),
});
export type MonitorList = z.infer<typeof MonitorList>;

export const MonitorIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
