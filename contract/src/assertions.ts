import { z } from 'zod';
import { parseJsonPath } from './json-path.js';

export const assertionLimits = {
  count: 20,
  keywordMax: 1000,
  patternMax: 1000,
  jsonPathMax: 500,
  valueMax: 1000,
  latencyMaxMs: 120_000,
  /** The largest body a check can read (SPEC §9). */
  bodyBytesMax: 10 * 1024 * 1024,
} as const;

// RFC 9110 §5.6.2 token.
export const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Flags that make a regex stateful (g, y) or change nothing useful (d) are refused. */
export const REGEX_FLAGS = /^(?!.*(.).*\1)[imsu]*$/;

/** Whether `pattern` compiles with `flags`; used by the schema so the UI and API agree. */
export function regexCompiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** A failed soft assertion degrades the monitor instead of taking it down. */
const soft = z.boolean().default(false);

export const KeywordAssertion = z.strictObject({
  kind: z.literal('keyword'),
  value: z
    .string()
    .min(1, 'Enter the text to look for')
    .max(assertionLimits.keywordMax, 'Keywords are limited to 1,000 characters'),
  mode: z.enum(['present', 'absent']).default('present'),
  caseSensitive: z.boolean().default(true),
  soft,
});

const Pattern = z
  .string()
  .min(1, 'Enter a regular expression')
  .max(assertionLimits.patternMax, 'Patterns are limited to 1,000 characters');

const Flags = z
  .string()
  .regex(REGEX_FLAGS, 'Flags are any of i, m, s and u, each at most once')
  .default('');

/** Searches the body with a JavaScript regular expression, run with a time bound. */
export const RegexAssertion = z
  .strictObject({
    kind: z.literal('regex'),
    pattern: Pattern,
    flags: Flags,
    mode: z.enum(['present', 'absent']).default('present'),
    soft,
  })
  .superRefine((a, ctx) => {
    if (REGEX_FLAGS.test(a.flags) && !regexCompiles(a.pattern, a.flags)) {
      ctx.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: 'This is not a valid JavaScript regular expression',
      });
    }
  });

export const JsonPath = z
  .string()
  .trim()
  .min(1, 'Enter a JSON path, e.g. $.status')
  .max(assertionLimits.jsonPathMax, 'Paths are limited to 500 characters')
  .refine(
    (v) => parseJsonPath(v) !== null,
    "Use $ then .name, ['name'], [0] or [*] steps, e.g. $.items[0].id",
  );

/**
 * A value in the JSON body. `value` is read as JSON when it parses (`true`, `42`, `"ok"`,
 * `{"a":1}`), as plain text otherwise. `contains`: a string includes the text, an array has an
 * equal element. Through `[*]`, any selected value passing is enough.
 */
export const JsonAssertion = z
  .strictObject({
    kind: z.literal('json'),
    path: JsonPath,
    op: z.enum(['equals', 'contains', 'exists', 'not_exists']).default('equals'),
    value: z
      .string()
      .max(assertionLimits.valueMax, 'Values are limited to 1,000 characters')
      .default(''),
    soft,
  })
  .superRefine((a, ctx) => {
    if ((a.op === 'equals' || a.op === 'contains') && a.value === '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter the value to compare with' });
    }
  });

/** A response header: `matches` is a regular expression run with a time bound. */
export const HeaderAssertion = z
  .strictObject({
    kind: z.literal('header'),
    name: z
      .string()
      .regex(HEADER_TOKEN, "Header names are letters, digits and !#$%&'*+-.^_`|~ only"),
    op: z.enum(['equals', 'contains', 'matches', 'exists']).default('equals'),
    value: z
      .string()
      .max(assertionLimits.valueMax, 'Values are limited to 1,000 characters')
      .default(''),
    soft,
  })
  .superRefine((a, ctx) => {
    if ((a.op === 'equals' || a.op === 'contains' || a.op === 'matches') && a.value === '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'Enter the value to compare with' });
    } else if (a.op === 'matches' && !regexCompiles(a.value, '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'This is not a valid JavaScript regular expression',
      });
    }
  });

/** The whole response within `maxMs`; soft by default, so a slow answer degrades. */
export const LatencyAssertion = z.strictObject({
  kind: z.literal('latency'),
  maxMs: z
    .number({ error: 'Enter a number of milliseconds' })
    .int('Whole milliseconds only')
    .min(1, 'At least 1 ms')
    .max(assertionLimits.latencyMaxMs, 'At most 120,000 ms'),
  soft: z.boolean().default(true),
});

/** The body's size as received (before decompression), in bytes. */
export const SizeAssertion = z.strictObject({
  kind: z.literal('size'),
  op: z.enum(['at_most', 'at_least']).default('at_most'),
  bytes: z
    .number({ error: 'Enter a number of bytes' })
    .int('Whole bytes only')
    .min(0, 'Sizes cannot be negative')
    .max(assertionLimits.bodyBytesMax, 'At most 10 MiB (10,485,760 bytes)'),
  soft,
});

export const Assertion = z.discriminatedUnion(
  'kind',
  [
    KeywordAssertion,
    RegexAssertion,
    JsonAssertion,
    HeaderAssertion,
    LatencyAssertion,
    SizeAssertion,
  ],
  { error: 'Choose an assertion kind' },
);
export type Assertion = z.infer<typeof Assertion>;
export type AssertionDraft = z.input<typeof Assertion>;
export type AssertionKind = Assertion['kind'];

export const Assertions = z
  .array(Assertion)
  .max(assertionLimits.count, 'At most 20 assertions')
  .default([]);
