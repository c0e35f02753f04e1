import type { Monitor, MonitorDraft, MonitorType } from '@pagewatch/contract';
import type { FormValues, ReadNumber } from './form-values';
import { newHeaderRow, splitLines, splitList } from './form-values';

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
  /** The type's settings for the draft; headerKeys maps header rows to draft indexes. */
  draft(
    v: FormValues,
    num: ReadNumber,
  ): { settings: Omit<DraftOf<T>, CommonKey>; headerKeys?: number[] };
  /** Field keys this type's sections show errors for (prefixes end with '.'). */
  fields: readonly string[];
  /** Schedule defaults of this type, used when it is chosen on a form still at the common ones. */
  schedule?: { interval: string; timeout: string };
}

function headerRows(v: FormValues) {
  const headers = v.headers.filter((h) => h.name.trim() !== '' || h.value !== '');
  return {
    headers: headers.map((h) => ({ name: h.name.trim(), value: h.value })),
    headerKeys: headers.map((h) => h.key),
  };
}

/** One entry per monitor type. */
export const formKinds: { [T in MonitorType]: FormKind<T> } = {
  http: {
    label: 'HTTP',
    values: (m) => ({
      url: m.url,
      method: m.method,
      headers: m.headers.map((h) => newHeaderRow(h.name, h.value)),
      body: m.body,
      acceptedStatusCodes: m.acceptedStatusCodes.join(', '),
      followRedirects: m.followRedirects,
      maxRedirects: String(m.maxRedirects),
      keywordEnabled: m.keyword !== null,
      keywordValue: m.keyword?.value ?? '',
      keywordMode: m.keyword?.mode ?? 'present',
      keywordCaseSensitive: m.keyword?.caseSensitive ?? true,
      ignoreTls: m.ignoreTls,
    }),
    draft: (v, num) => {
      const headers = v.headers.filter((h) => h.name.trim() !== '' || h.value !== '');
      return {
        settings: {
          url: v.url,
          method: v.method,
          headers: headers.map((h) => ({ name: h.name.trim(), value: h.value })),
          body: v.body,
          acceptedStatusCodes: splitList(v.acceptedStatusCodes),
          followRedirects: v.followRedirects,
          maxRedirects: num('maxRedirects'),
          keyword: v.keywordEnabled
            ? { value: v.keywordValue, mode: v.keywordMode, caseSensitive: v.keywordCaseSensitive }
            : null,
          ignoreTls: v.ignoreTls,
        },
        headerKeys: headers.map((h) => h.key),
      };
    },
    fields: [
      'url',
      'method',
      'headers',
      'headers.',
      'body',
      'acceptedStatusCodes',
      'followRedirects',
      'maxRedirects',
      'keyword.value',
      'keyword.mode',
      'ignoreTls',
    ],
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
    values: (m) => ({ graceSeconds: String(m.graceSeconds) }),
    draft: (v, num) => ({ settings: { graceSeconds: num('graceSeconds') } }),
    fields: ['graceSeconds'],
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
      basicAuthPassword: m.basicAuth?.password ?? '',
      headers: m.headers.map((h) => newHeaderRow(h.name, h.value)),
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
          basicAuth: v.basicAuthEnabled
            ? { username: v.basicAuthUsername, password: v.basicAuthPassword }
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
};

export const monitorTypes = Object.keys(formKinds) as MonitorType[];
