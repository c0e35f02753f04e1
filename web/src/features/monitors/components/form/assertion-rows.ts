import type { Assertion, AssertionDraft, AssertionKind } from '@pagewatch/contract';

/** One assertion as the editor holds it: every kind's inputs as typed, so switching kind keeps text. */
export interface AssertionRow {
  /** Stable identity for React keys and error keys while rows move. */
  key: number;
  kind: AssertionKind;
  /** keyword text, JSON value, header value. */
  value: string;
  /** keyword and regex: present | absent. */
  mode: 'present' | 'absent';
  caseSensitive: boolean;
  pattern: string;
  flags: string;
  path: string;
  jsonOp: 'equals' | 'contains' | 'exists' | 'not_exists';
  name: string;
  headerOp: 'equals' | 'contains' | 'matches' | 'exists';
  maxMs: string;
  sizeOp: 'at_most' | 'at_least';
  bytes: string;
  soft: boolean;
}

let nextKey = 1;

export function newAssertionRow(kind: AssertionKind = 'keyword'): AssertionRow {
  return {
    key: nextKey++,
    kind,
    value: '',
    mode: 'present',
    caseSensitive: true,
    pattern: '',
    flags: '',
    path: '$.',
    jsonOp: 'equals',
    name: '',
    headerOp: 'equals',
    maxMs: '1000',
    sizeOp: 'at_most',
    bytes: '',
    // A slow answer degrades rather than fails unless asked otherwise (the contract's default).
    soft: kind === 'latency',
  };
}

/** A saved assertion as an editor row. */
export function rowOf(a: Assertion): AssertionRow {
  const row = { ...newAssertionRow(a.kind), soft: a.soft };
  switch (a.kind) {
    case 'keyword':
      return { ...row, value: a.value, mode: a.mode, caseSensitive: a.caseSensitive };
    case 'regex':
      return { ...row, pattern: a.pattern, flags: a.flags, mode: a.mode };
    case 'json':
      return { ...row, path: a.path, jsonOp: a.op, value: a.value };
    case 'header':
      return { ...row, name: a.name, headerOp: a.op, value: a.value };
    case 'latency':
      return { ...row, maxMs: String(a.maxMs) };
    case 'size':
      return { ...row, sizeOp: a.op, bytes: String(a.bytes) };
  }
}

/** Empty text is left undefined so the schema says "Enter a number"; the schema rejects NaN too. */
const numberOf = (text: string): number | undefined =>
  text.trim() === '' ? undefined : Number(text.trim());

/** The row as the draft sends it: only its kind's fields. */
export function assertionDraft(row: AssertionRow): AssertionDraft {
  const { soft } = row;
  switch (row.kind) {
    case 'keyword':
      return {
        kind: 'keyword',
        value: row.value,
        mode: row.mode,
        caseSensitive: row.caseSensitive,
        soft,
      };
    case 'regex':
      return { kind: 'regex', pattern: row.pattern, flags: row.flags, mode: row.mode, soft };
    case 'json':
      return { kind: 'json', path: row.path, op: row.jsonOp, value: row.value, soft };
    case 'header':
      return { kind: 'header', name: row.name.trim(), op: row.headerOp, value: row.value, soft };
    case 'latency':
      return { kind: 'latency', maxMs: numberOf(row.maxMs) as number, soft };
    case 'size':
      return { kind: 'size', op: row.sizeOp, bytes: numberOf(row.bytes) as number, soft };
  }
}

export const assertionKinds: readonly { value: AssertionKind; label: string; help: string }[] = [
  {
    value: 'keyword',
    label: 'Text in the body',
    help: 'Looks for plain text anywhere in the response body (the first 1 MiB by default).',
  },
  {
    value: 'regex',
    label: 'Regular expression',
    help: 'A JavaScript regular expression searched in the body; it must finish within 100 ms.',
  },
  {
    value: 'json',
    label: 'JSON value',
    help: "The body must be JSON. Paths: $.a.b, $.items[0], $['key with space'], $.items[*].id.",
  },
  {
    value: 'header',
    label: 'Response header',
    help: 'Header names ignore case. "Contains" ignores case; "matches" is a regular expression.',
  },
  {
    value: 'latency',
    label: 'Response time',
    help: 'The whole response, redirects included, within this many milliseconds.',
  },
  {
    value: 'size',
    label: 'Body size',
    help: 'Bytes of the body as received, before decompression.',
  },
];
