import { parseJsonPath, selectJsonPath, type AssertionResult } from '@pagewatch/contract';
import { CheckFailure } from '../socket.js';

/** What a received message must be: contain a keyword, hold a JSON value, or be our probe. */
export type MessageRule =
  | { kind: 'keyword'; expected: string; jsonPath: string }
  | { kind: 'json'; expected: string; jsonPath: string }
  | { kind: 'probe'; probe: string };

const SHOWN = 200;
const shown = (text: string): string => (text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/** A JSON value as compared and shown: strings bare, everything else as JSON. */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** Judges one message payload; the assertion says what was expected and what came. */
export function judgeMessage(
  rule: MessageRule,
  payload: Buffer,
): { failure: CheckFailure | null; assertion: AssertionResult } {
  const text = payload.toString('utf8');
  if (rule.kind === 'probe') {
    const passed = text === rule.probe;
    return {
      failure: passed
        ? null
        : new CheckFailure('keyword_missing', `Expected the probe back but got “${shown(text)}”`),
      assertion: {
        kind: 'message',
        target: 'probe',
        expected: 'the probe published',
        actual: passed ? 'the probe came back' : shown(text),
        passed,
        soft: false,
      },
    };
  }
  if (rule.kind === 'keyword') {
    const passed = text.includes(rule.expected);
    return {
      failure: passed
        ? null
        : new CheckFailure(
            'keyword_missing',
            `Expected a message containing “${rule.expected}” but got “${shown(text)}”`,
          ),
      assertion: {
        kind: 'keyword',
        target: 'message',
        expected: rule.expected === '' ? 'any message' : `contains “${rule.expected}”`,
        actual: shown(text),
        passed,
        soft: false,
      },
    };
  }
  const segments = parseJsonPath(rule.jsonPath) ?? [];
  let values: unknown[] | null;
  try {
    values = selectJsonPath(JSON.parse(text) as unknown, segments);
  } catch {
    values = null;
  }
  const actual = values === null ? null : values.length === 0 ? null : asText(values[0]);
  const passed =
    values !== null &&
    values.length > 0 &&
    (rule.expected === '' || values.some((v) => asText(v) === rule.expected));
  const why =
    values === null
      ? `the message is not JSON: “${shown(text)}”`
      : values.length === 0
        ? `${rule.jsonPath} is not in the message`
        : `it is “${shown(actual ?? '')}”`;
  return {
    failure: passed
      ? null
      : new CheckFailure(
          'json_assertion',
          rule.expected === ''
            ? `Expected a value at ${rule.jsonPath} but ${why}`
            : `Expected ${rule.jsonPath} to be “${rule.expected}” but ${why}`,
        ),
    assertion: {
      kind: 'json',
      target: rule.jsonPath,
      expected: rule.expected === '' ? 'present' : `equals “${rule.expected}”`,
      actual: actual === null ? null : shown(actual),
      passed,
      soft: false,
    },
  };
}
