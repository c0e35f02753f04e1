import { isDeepStrictEqual } from 'node:util';
import {
  parseJsonPath,
  selectJsonPath,
  type AssertionResult,
  type WebSocketExpect,
} from '@pagewatch/contract';

export interface ReplyRule {
  kind: WebSocketExpect;
  path: string;
  value: string;
}

const show = (v: unknown, max = 120): string => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/** The expected value as JSON when it parses (`true`, `42`, `"ok"`), as text otherwise. */
function wanted(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether one message is the awaited reply; the assertion tells expected vs actual either way. */
export function judgeReply(rule: ReplyRule, message: string | null): AssertionResult {
  if (rule.kind === 'json') {
    const want = wanted(rule.value);
    let found: unknown[] = [];
    let actual: string | null = null;
    if (message !== null) {
      try {
        found = selectJsonPath(JSON.parse(message), parseJsonPath(rule.path) ?? []);
        actual = found.length === 0 ? 'missing' : show(found.length === 1 ? found[0] : found);
      } catch {
        actual = `not JSON: ${show(message)}`;
      }
    }
    const any = rule.value === '';
    return {
      kind: 'json',
      target: `${rule.path} of a message`,
      expected: any ? 'exists' : `equals ${show(want)}`,
      actual,
      passed: any
        ? found.length > 0
        : found.some((v) => isDeepStrictEqual(v, want) || String(v) === rule.value),
      soft: false,
    };
  }
  return {
    kind: 'keyword',
    target: 'a message',
    expected: `contains ${show(rule.value)}`,
    actual: message === null ? null : show(message),
    passed: message !== null && message.includes(rule.value),
    soft: false,
  };
}
