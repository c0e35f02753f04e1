import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { canonical } from '../../../src/services/config/compare.js';
import { SAMPLE_YAML } from '../../config-as-code/sample.js';

/** The first canonical form, kept here: drift baselines stored by it must still compare equal. */
const sortedReplacer = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );

describe('the canonical text of a configuration entry', () => {
  const cases: [string, unknown][] = [
    ['the sample document', parse(SAMPLE_YAML)],
    ['keys out of order, nested', { b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }],
    ['integer keys beside words', { '10': 'ten', '9': 'nine', b: 2, a: 1, '01': 'zero-one' }],
    ['undefined members left out, in arrays as null', { a: undefined, b: [undefined, 1] }],
    ['strings that need escaping', { 'k"ey': 'line\nbreak\u2028', emoji: '✓' }],
    ['empty shapes', { a: {}, b: [], c: null, d: '' }],
    ['numbers', { a: 0, b: -1.5, c: 1e21, d: Number.NaN }],
    ['a date', { at: new Date(Date.UTC(2026, 10, 27)) }],
    ['a bare value', 'text'],
  ];
  it.each(cases)('is the same text as the first form: %s', (_name, value) => {
    expect(canonical(value)).toBe(sortedReplacer(value));
  });

  it('does not depend on the order keys were written in', () => {
    expect(canonical({ a: 1, b: { c: 2, d: 3 } })).toBe(canonical({ b: { d: 3, c: 2 }, a: 1 }));
  });
});
