import type { Assertion } from '@pagewatch/contract';

const quote = (text: string): string => `“${text}”`;

/** One assertion in words, for the settings panel: "Body contains “ok” (any case)". */
export function assertionText(a: Assertion): string {
  const soft = a.soft && a.kind !== 'latency' ? ' — soft' : '';
  switch (a.kind) {
    case 'keyword':
      return `Body ${a.mode === 'present' ? 'contains' : 'does not contain'} ${quote(a.value)}${a.caseSensitive ? '' : ' (any case)'}${soft}`;
    case 'regex':
      return `Body ${a.mode === 'present' ? 'matches' : 'does not match'} /${a.pattern}/${a.flags}${soft}`;
    case 'json': {
      const op = {
        equals: 'equals',
        contains: 'contains',
        exists: 'exists',
        not_exists: 'does not exist',
      }[a.op];
      const value = a.op === 'equals' || a.op === 'contains' ? ` ${a.value}` : '';
      return `JSON ${a.path} ${op}${value}${soft}`;
    }
    case 'header': {
      const op = {
        equals: 'equals',
        contains: 'contains',
        matches: 'matches',
        exists: 'is present',
      }[a.op];
      const value =
        a.op === 'exists' ? '' : a.op === 'matches' ? ` /${a.value}/` : ` ${quote(a.value)}`;
      return `Header ${a.name} ${op}${value}${soft}`;
    }
    case 'latency':
      return `Response within ${a.maxMs.toLocaleString('en-US')} ms${a.soft ? ' (degrades)' : ' (down otherwise)'}`;
    case 'size':
      return `Body ${a.op === 'at_most' ? 'at most' : 'at least'} ${a.bytes.toLocaleString('en-US')} bytes${soft}`;
  }
}
