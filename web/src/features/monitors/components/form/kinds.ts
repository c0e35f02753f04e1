import type { Monitor, MonitorDraft, MonitorType, RequestHeaderView } from '@pagewatch/contract';
import { assertionDraft, rowOf } from './assertion-rows';
import type { FormValues, ReadNumber } from './form-values';
import { namesStored, newHeaderRow, splitLines, splitList } from './form-values';

type MonitorOf<T extends MonitorType> = Extract<Monitor, { type: T }>;
type DraftOf<T extends MonitorType> = Extract<MonitorDraft, { type: T }>;
type CommonKey =
  | 'type'
  | 'name'
  | 'interval'
  | 'timeout'
  | 'retries'
  | 'retryInterval'
  | 'degradedThresholdMs'
  | 'tags'
  | 'description'
  | 'paused';

/** What one monitor type adds to the form: its values ↔ its part of the draft. */
interface FormKind<T extends MonitorType> {
  label: string;
  /** The type's fields as the form holds them, from a saved monitor. */
  values(m: MonitorOf<T>): Partial<FormValues>;
  /** The type's settings for the draft; the keys map editor rows to draft indexes. */
  draft(
    v: FormValues,
    num: ReadNumber,
  ): { settings: Omit<DraftOf<T>, CommonKey>; headerKeys?: number[]; assertionKeys?: number[] };
  /** Field keys this type's sections show errors for (prefixes end with '.'). */
  fields: readonly string[];
  /** Schedule defaults of this type, used when it is chosen on a form still at the common ones. */
  schedule?: { interval: string; timeout: string };
}

/**
 * The rows as the API takes them. A stored secret left empty is sent without a value, so the
 * server keeps it (matched by name); unticked, that asks for its value, which is never shown.
 * Blank new rows are dropped.
 */
function headerRows(v: FormValues) {
  const headers = v.headers.filter(
    (h) => h.name.trim() !== '' || h.value !== '' || h.storedAs !== null,
  );
  return {
    headers: headers.map((h) => ({
      name: h.name.trim(),
      secret: h.secret,
      ...(namesStored(h) && h.value === '' ? {} : { value: h.value }),
    })),
    headerKeys: headers.map((h) => h.key),
  };
}

/** Rows of a saved monitor: secret values are never sent to the browser, only that one exists. */
const rowsOf = (headers: readonly RequestHeaderView[]) =>
  headers.map((h) =>
    h.secret
      ? newHeaderRow(h.name, '', true, h.hasValue ? h.name : null)
      : newHeaderRow(h.name, h.value, false),
  );

/** The fields every database type shares, as the form holds them. */
type DatabaseMonitor = MonitorOf<'postgres' | 'mysql' | 'redis' | 'mongodb'>;
const databaseValues = (m: DatabaseMonitor): Partial<FormValues> => ({
  host: m.host,
  port: String(m.port),
  dbDatabase: String(m.database),
  dbUsername: m.username,
  dbPassword: '',
  dbPasswordSaved: m.hasPassword,
  dbTls: m.tls,
  warnDays: String(m.warnDays),
  ignoreTrust: m.ignoreTrust,
});

/** Connection settings of the draft; an empty password over a saved one is left out (kept). */
const databaseDraft = (v: FormValues, num: ReadNumber) => ({
  host: v.host,
  port: num('port'),
  username: v.dbUsername.trim(),
  ...(v.dbPassword === '' && v.dbPasswordSaved ? {} : { password: v.dbPassword }),
  tls: v.dbTls,
  ignoreTrust: v.ignoreTrust,
  warnDays: num('warnDays'),
});

const databaseFields = [
  'host',
  'port',
  'database',
  'username',
  'password',
  'tls',
  'ignoreTrust',
  'warnDays',
];

/**
 * A broker's connection (MQTT, RabbitMQ): the database types' login and TLS values; an empty
 * port is the TLS port when TLS is on, else the schema's plain one.
 */
const brokerDraft = (v: FormValues, num: ReadNumber, tlsPort: number) => ({
  host: v.host,
  port: num('port') ?? (v.dbTls ? tlsPort : undefined),
  username: v.dbUsername.trim(),
  ...(v.dbPassword === '' && v.dbPasswordSaved ? {} : { password: v.dbPassword }),
  tls: v.dbTls,
  ignoreTrust: v.ignoreTrust,
  warnDays: num('warnDays'),
});

const brokerFields = ['host', 'port', 'username', 'password', 'tls', 'ignoreTrust', 'warnDays'];

/** A mailbox server (IMAP, POP3): an empty port is the TLS port with TLS from the start. */
function mailboxKind<T extends 'imap' | 'pop3'>(label: string, tlsPort: number): FormKind<T> {
  return {
    label,
    values: (saved) => {
      const m = saved as MonitorOf<'imap' | 'pop3'>;
      return {
        host: m.host,
        port: String(m.port),
        mailSecurity: m.security,
        warnDays: String(m.warnDays),
        ignoreTrust: m.ignoreTrust,
      };
    },
    draft: (v, num) => ({
      settings: {
        host: v.host,
        port: num('port') ?? (v.mailSecurity === 'tls' ? tlsPort : undefined),
        security: v.mailSecurity,
        ignoreTrust: v.ignoreTrust,
        warnDays: num('warnDays'),
      } as Omit<DraftOf<T>, CommonKey>,
    }),
    fields: ['host', 'port', 'security', 'ignoreTrust', 'warnDays'],
  };
}

/** One entry per monitor type. */
export const formKinds: { [T in MonitorType]: FormKind<T> } = {
  http: {
    label: 'HTTP',
    values: (m) => ({
      url: m.url,
      method: m.method,
      headers: rowsOf(m.headers),
      bodyType: m.bodyType,
      body: m.body,
      authKind: m.auth.kind,
      authUsername: m.auth.kind === 'basic' ? m.auth.username : '',
      authSecret: '',
      authSaved: m.auth.kind !== 'none' && m.auth.hasSecret ? m.auth.kind : null,
      acceptedStatusCodes: m.acceptedStatusCodes.join(', '),
      followRedirects: m.followRedirects,
      maxRedirects: String(m.maxRedirects),
      ipFamily: m.ipFamily,
      ignoreTls: m.ignoreTls,
      assertions: m.assertions.map(rowOf),
      maxBodyBytes: String(m.maxBodyBytes),
      httpDomainExpiry: m.domainExpiry !== null,
      domainWarnDays: String(m.domainExpiry?.warnDays ?? 30),
    }),
    draft: (v, num) => {
      const { headers, headerKeys } = headerRows(v);
      // An empty secret is left out: the server keeps the saved one (or, new, has none).
      const secret = v.authSecret === '' ? {} : null;
      const auth =
        v.authKind === 'basic'
          ? {
              kind: 'basic' as const,
              username: v.authUsername,
              ...(secret ?? { password: v.authSecret }),
            }
          : v.authKind === 'bearer'
            ? { kind: 'bearer' as const, ...(secret ?? { token: v.authSecret }) }
            : { kind: 'none' as const };
      return {
        settings: {
          url: v.url,
          method: v.method,
          headers,
          bodyType: v.bodyType,
          body: v.bodyType === 'none' ? '' : v.body,
          auth,
          acceptedStatusCodes: splitList(v.acceptedStatusCodes),
          followRedirects: v.followRedirects,
          maxRedirects: num('maxRedirects'),
          ipFamily: v.ipFamily,
          ignoreTls: v.ignoreTls,
          assertions: v.assertions.map(assertionDraft),
          maxBodyBytes: num('maxBodyBytes'),
          domainExpiry: v.httpDomainExpiry ? { warnDays: num('domainWarnDays') } : null,
        },
        headerKeys,
        assertionKeys: v.assertions.map((a) => a.key),
      };
    },
    fields: [
      'domainExpiry.',
      'url',
      'method',
      'headers',
      'headers.',
      'bodyType',
      'body',
      'auth.',
      'acceptedStatusCodes',
      'followRedirects',
      'maxRedirects',
      'ipFamily',
      'ignoreTls',
      'assertions',
      'assertions.',
      'maxBodyBytes',
    ],
  },
  group: {
    label: 'Group',
    values: (m) => ({
      groupMembers: m.members.join(','),
      groupRule: m.rule,
      groupMinUpPercent: String(m.minUpPercent),
    }),
    draft: (v, num) => ({
      settings: {
        members: v.groupMembers.split(',').filter(Boolean).map(Number),
        rule: v.groupRule,
        minUpPercent: num('groupMinUpPercent'),
      },
    }),
    fields: ['members', 'rule', 'minUpPercent'],
  },
  domain: {
    label: 'Domain expiry',
    values: (m) => ({ domain: m.domain, domainWarnDays: String(m.warnDays) }),
    draft: (v, num) => ({ settings: { domain: v.domain.trim(), warnDays: num('domainWarnDays') } }),
    fields: ['domain', 'warnDays'],
    // Registrations change by the day: hourly is plenty, and lookups are cached anyway.
    schedule: { interval: '3600', timeout: '10' },
  },
  tcp: {
    label: 'TCP',
    values: (m) => ({ host: m.host, port: String(m.port), send: m.send, expect: m.expect }),
    draft: (v, num) => ({
      settings: { host: v.host, port: num('port') as number, send: v.send, expect: v.expect },
    }),
    fields: ['host', 'port', 'send', 'expect'],
  },
  dns: {
    label: 'DNS',
    values: (m) => ({
      host: m.host,
      recordType: m.recordType,
      resolver: m.resolver,
      expected: m.expected.join('\n'),
      match: m.match,
    }),
    draft: (v) => ({
      settings: {
        host: v.host,
        recordType: v.recordType,
        resolver: v.resolver,
        expected: splitLines(v.expected),
        match: v.match,
      },
    }),
    fields: ['host', 'recordType', 'resolver', 'expected', 'match'],
  },
  tls: {
    label: 'TLS',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      servername: m.servername,
      warnDays: String(m.warnDays),
      ignoreTrust: m.ignoreTrust,
    }),
    draft: (v, num) => ({
      settings: {
        host: v.host,
        port: num('port'),
        servername: v.servername,
        warnDays: num('warnDays'),
        ignoreTrust: v.ignoreTrust,
      },
    }),
    fields: ['host', 'port', 'servername', 'warnDays', 'ignoreTrust'],
  },
  push: {
    label: 'Push',
    values: (m) => ({
      graceSeconds: String(m.graceSeconds),
      scheduleKind: m.schedule.kind,
      ...(m.schedule.kind === 'interval'
        ? {}
        : { scheduleExpression: m.schedule.expression, scheduleTimezone: m.schedule.timezone }),
    }),
    draft: (v, num) => ({
      settings: {
        graceSeconds: num('graceSeconds'),
        schedule:
          v.scheduleKind === 'interval'
            ? { kind: 'interval' }
            : {
                kind: v.scheduleKind,
                expression: v.scheduleExpression,
                timezone: v.scheduleTimezone,
              },
      },
    }),
    fields: ['graceSeconds', 'schedule.'],
  },
  browser: {
    label: 'Browser',
    values: (m) => ({
      url: m.url,
      viewport: m.viewport,
      waitFor: m.waitFor,
      waitSelector: m.waitSelector,
      requiredText: m.requiredText,
      requiredSelector: m.requiredSelector,
      lcpThresholdMs: m.lcpThresholdMs === null ? '' : String(m.lcpThresholdMs),
      failOnJsError: m.failOnJsError,
      basicAuthEnabled: m.basicAuth !== null,
      basicAuthUsername: m.basicAuth?.username ?? '',
      basicAuthPassword: '',
      basicAuthSaved: m.basicAuth?.hasSecret ?? false,
      headers: rowsOf(m.headers),
    }),
    draft: (v, num) => {
      const { headers, headerKeys } = headerRows(v);
      return {
        settings: {
          url: v.url,
          viewport: v.viewport,
          waitFor: v.waitFor,
          waitSelector: v.waitFor === 'selector' ? v.waitSelector : '',
          requiredText: v.requiredText,
          requiredSelector: v.requiredSelector,
          lcpThresholdMs: num('lcpThresholdMs') ?? null,
          failOnJsError: v.failOnJsError,
          // Left empty over a saved password, it is left out: the server keeps the saved one.
          basicAuth: v.basicAuthEnabled
            ? v.basicAuthPassword === '' && v.basicAuthSaved
              ? { username: v.basicAuthUsername }
              : { username: v.basicAuthUsername, password: v.basicAuthPassword }
            : null,
          headers,
        },
        headerKeys,
      };
    },
    fields: [
      'url',
      'viewport',
      'waitFor',
      'waitSelector',
      'requiredText',
      'requiredSelector',
      'lcpThresholdMs',
      'failOnJsError',
      'basicAuth.username',
      'basicAuth.password',
      'headers',
      'headers.',
    ],
    schedule: { interval: '300', timeout: '30' },
  },
  postgres: {
    label: 'PostgreSQL',
    values: (m) => ({ ...databaseValues(m), dbQuery: m.query, dbExpected: m.expected }),
    draft: (v, num) => ({
      settings: {
        ...databaseDraft(v, num),
        database: v.dbDatabase.trim(),
        query: v.dbQuery,
        expected: v.dbExpected,
      },
    }),
    fields: [...databaseFields, 'query', 'expected'],
  },
  mysql: {
    label: 'MySQL',
    values: (m) => ({ ...databaseValues(m), dbQuery: m.query, dbExpected: m.expected }),
    draft: (v, num) => ({
      settings: {
        ...databaseDraft(v, num),
        database: v.dbDatabase.trim(),
        query: v.dbQuery,
        expected: v.dbExpected,
      },
    }),
    fields: [...databaseFields, 'query', 'expected'],
  },
  redis: {
    label: 'Redis',
    values: (m) => ({ ...databaseValues(m), dbQuery: m.command, dbExpected: m.expected }),
    draft: (v, num) => ({
      settings: {
        ...databaseDraft(v, num),
        // Not a number is the contract's to report, under `database`.
        database: v.dbDatabase.trim() === '' ? 0 : Number(v.dbDatabase),
        command: v.dbQuery,
        expected: v.dbExpected,
      },
    }),
    fields: [...databaseFields, 'command', 'expected'],
  },
  mongodb: {
    label: 'MongoDB',
    values: databaseValues,
    draft: (v, num) => ({
      settings: {
        ...databaseDraft(v, num),
        ...(v.dbDatabase.trim() === '' ? {} : { database: v.dbDatabase.trim() }),
      },
    }),
    fields: databaseFields,
  },
  ping: {
    label: 'Ping',
    values: (m) => ({
      host: m.host,
      ipFamily: m.ipFamily,
      count: String(m.count),
      packetIntervalMs: String(m.packetIntervalMs),
      lossDegradedPercent: String(m.lossDegradedPercent),
    }),
    draft: (v, num) => ({
      settings: {
        host: v.host,
        ipFamily: v.ipFamily,
        count: num('count'),
        packetIntervalMs: num('packetIntervalMs'),
        lossDegradedPercent: num('lossDegradedPercent'),
      },
    }),
    fields: ['host', 'ipFamily', 'count', 'packetIntervalMs', 'lossDegradedPercent'],
  },
  udp: {
    label: 'UDP',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      payloadFormat: m.format,
      send: m.send,
      expect: m.expect,
    }),
    draft: (v, num) => ({
      settings: {
        host: v.host,
        port: num('port') as number,
        format: v.payloadFormat,
        send: v.send,
        expect: v.expect,
      },
    }),
    fields: ['host', 'port', 'format', 'send', 'expect'],
  },
  websocket: {
    label: 'WebSocket',
    values: (m) => ({
      url: m.url,
      send: m.send,
      expectKind: m.expectKind,
      expectPath: m.expectPath,
      expectValue: m.expectValue,
      ignoreTls: m.ignoreTls,
      headers: rowsOf(m.headers),
    }),
    draft: (v) => {
      const { headers, headerKeys } = headerRows(v);
      return {
        settings: {
          url: v.url,
          send: v.send,
          expectKind: v.expectKind,
          expectPath: v.expectKind === 'json' ? v.expectPath : '',
          expectValue: v.expectKind === 'none' ? '' : v.expectValue,
          ignoreTls: v.url.trim().startsWith('wss:') && v.ignoreTls,
          headers,
        },
        headerKeys,
      };
    },
    fields: [
      'url',
      'send',
      'expectKind',
      'expectPath',
      'expectValue',
      'ignoreTls',
      'headers',
      'headers.',
    ],
  },
  grpc: {
    label: 'gRPC',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      grpcService: m.service,
      grpcTls: m.tls,
      ignoreTls: m.ignoreTls,
      headers: rowsOf(m.headers),
    }),
    draft: (v, num) => {
      const { headers, headerKeys } = headerRows(v);
      return {
        settings: {
          host: v.host,
          port: num('port') as number,
          service: v.grpcService,
          tls: v.grpcTls,
          ignoreTls: v.grpcTls && v.ignoreTls,
          headers,
        },
        headerKeys,
      };
    },
    fields: ['host', 'port', 'service', 'tls', 'ignoreTls', 'headers', 'headers.'],
  },
  mqtt: {
    label: 'MQTT',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      dbUsername: m.username,
      dbPassword: '',
      dbPasswordSaved: m.hasPassword,
      dbTls: m.tls,
      warnDays: String(m.warnDays),
      ignoreTrust: m.ignoreTrust,
      mqttMode: m.mode,
      mqttTopic: m.topic,
      mqttMatch: m.match,
      mqttJsonPath: m.jsonPath,
      mqttExpected: m.expected,
    }),
    draft: (v, num) => ({
      settings: {
        ...brokerDraft(v, num, 8883),
        mode: v.mqttMode,
        topic: v.mqttMode === 'connect' ? '' : v.mqttTopic,
        match: v.mqttMatch,
        jsonPath: v.mqttMode === 'subscribe' && v.mqttMatch === 'json' ? v.mqttJsonPath : '',
        expected: v.mqttMode === 'subscribe' ? v.mqttExpected : '',
      },
    }),
    fields: [...brokerFields, 'mode', 'topic', 'match', 'jsonPath', 'expected'],
  },
  amqp: {
    label: 'RabbitMQ',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      dbUsername: m.username,
      dbPassword: '',
      dbPasswordSaved: m.hasPassword,
      dbTls: m.tls,
      warnDays: String(m.warnDays),
      ignoreTrust: m.ignoreTrust,
      amqpVhost: m.vhost,
      amqpQueue: m.queue,
      amqpMaxDepth: m.maxDepth === null ? '' : String(m.maxDepth),
    }),
    draft: (v, num) => ({
      settings: {
        ...brokerDraft(v, num, 5671),
        vhost: v.amqpVhost === '' ? '/' : v.amqpVhost,
        queue: v.amqpQueue.trim(),
        maxDepth: num('amqpMaxDepth') ?? null,
      },
    }),
    fields: [...brokerFields, 'vhost', 'queue', 'maxDepth'],
  },
  smtp: {
    label: 'SMTP',
    values: (m) => ({
      host: m.host,
      port: String(m.port),
      mailSecurity: m.security,
      warnDays: String(m.warnDays),
      ignoreTrust: m.ignoreTrust,
      smtpEhloName: m.ehloName,
      smtpCapabilities: m.capabilities.join(', '),
    }),
    draft: (v, num) => ({
      settings: {
        host: v.host,
        // Empty: 465 for TLS from the first byte, else the schema's 25.
        port: num('port') ?? (v.mailSecurity === 'tls' ? 465 : undefined),
        security: v.mailSecurity,
        ignoreTrust: v.ignoreTrust,
        warnDays: num('warnDays'),
        ehloName: v.smtpEhloName,
        capabilities: splitList(v.smtpCapabilities.replace(/\s+/g, ',')),
      },
    }),
    fields: [
      'host',
      'port',
      'security',
      'ignoreTrust',
      'warnDays',
      'ehloName',
      'capabilities',
      'capabilities.',
    ],
  },
  imap: mailboxKind('IMAP', 993),
  pop3: mailboxKind('POP3', 995),
};
export const monitorTypes = Object.keys(formKinds) as MonitorType[];
