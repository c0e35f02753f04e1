import type { HttpMethod, Monitor, MonitorDraft } from '@pagewatch/contract';

export interface HeaderRow {
  /** Stable identity for React keys and error keys while rows are added and removed. */
  key: number;
  name: string;
  value: string;
}

/** What the inputs hold: text as typed, turned into a MonitorDraft only for validation and submit. */
export interface FormValues {
  name: string;
  url: string;
  method: HttpMethod;
  interval: string;
  timeout: string;
  retries: string;
  retryInterval: string;
  degradedThresholdMs: string;
  headers: HeaderRow[];
  body: string;
  acceptedStatusCodes: string;
  followRedirects: boolean;
  maxRedirects: string;
  keywordEnabled: boolean;
  keywordValue: string;
  keywordMode: 'present' | 'absent';
  keywordCaseSensitive: boolean;
  ignoreTls: boolean;
  tags: string;
  description: string;
  paused: boolean;
}

let nextKey = 1;
export const newHeaderRow = (name = '', value = ''): HeaderRow => ({ key: nextKey++, name, value });

export const emptyValues = (): FormValues => ({
  name: '',
  url: '',
  method: 'GET',
  interval: '60',
  timeout: '10',
  retries: '1',
  retryInterval: '',
  degradedThresholdMs: '',
  headers: [],
  body: '',
  acceptedStatusCodes: '200-299',
  followRedirects: true,
  maxRedirects: '10',
  keywordEnabled: false,
  keywordValue: '',
  keywordMode: 'present',
  keywordCaseSensitive: true,
  ignoreTls: false,
  tags: '',
  description: '',
  paused: false,
});

export function fromMonitor(m: Monitor): FormValues {
  return {
    name: m.name,
    url: m.url,
    method: m.method,
    interval: String(m.interval),
    timeout: String(m.timeout),
    retries: String(m.retries),
    retryInterval: m.retryInterval === null ? '' : String(m.retryInterval),
    degradedThresholdMs: m.degradedThresholdMs === null ? '' : String(m.degradedThresholdMs),
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
    tags: m.tags.join(', '),
    description: m.description,
    paused: m.paused,
  };
}

export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export interface DraftResult {
  draft: MonitorDraft;
  /** Row keys of the headers that were sent, by their index in the draft. */
  headerKeys: number[];
  /** Number fields that hold something other than a number. */
  notNumbers: string[];
}

type NumberField =
  'interval' | 'timeout' | 'retries' | 'retryInterval' | 'degradedThresholdMs' | 'maxRedirects';

export function toDraft(v: FormValues): DraftResult {
  const notNumbers: string[] = [];
  const num = (field: NumberField): number | undefined => {
    const text = v[field].trim();
    if (text === '') return undefined;
    const n = Number(text);
    if (!Number.isFinite(n)) {
      notNumbers.push(field);
      return undefined;
    }
    return n;
  };
  const headers = v.headers.filter((h) => h.name.trim() !== '' || h.value !== '');
  const draft: MonitorDraft = {
    type: 'http',
    name: v.name,
    url: v.url,
    method: v.method,
    interval: num('interval'),
    timeout: num('timeout'),
    retries: num('retries'),
    retryInterval: num('retryInterval') ?? null,
    degradedThresholdMs: num('degradedThresholdMs') ?? null,
    headers: headers.map((h) => ({ name: h.name.trim(), value: h.value })),
    body: v.body,
    acceptedStatusCodes: splitList(v.acceptedStatusCodes),
    followRedirects: v.followRedirects,
    maxRedirects: num('maxRedirects'),
    keyword: v.keywordEnabled
      ? { value: v.keywordValue, mode: v.keywordMode, caseSensitive: v.keywordCaseSensitive }
      : null,
    ignoreTls: v.ignoreTls,
    tags: splitList(v.tags),
    description: v.description,
    paused: v.paused,
  };
  return { draft, headerKeys: headers.map((h) => h.key), notNumbers };
}
