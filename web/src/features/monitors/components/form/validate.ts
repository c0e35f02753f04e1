import { MonitorInput, type FieldError } from '@pagewatch/contract';
import { splitLines, splitList, toDraft, type DraftResult, type FormValues } from './form-values';

/** Error messages by field key; the key '' holds errors that belong to no field. */
export type FieldErrors = Record<string, string>;

/** Lists typed into one input, and how each is split into its items. */
const listFields: Record<string, (values: FormValues) => string[]> = {
  acceptedStatusCodes: (v) => splitList(v.acceptedStatusCodes),
  tags: (v) => splitList(v.tags),
  expected: (v) => splitLines(v.expected),
};

/** Row keys of the editors whose rows come and go, by their index in the draft. */
export interface RowKeys {
  headerKeys: readonly number[];
  assertionKeys: readonly number[];
}

/**
 * Maps a contract path ("headers.2.name", "tags.3", "assertions.1.path") to the form field
 * that shows it. List items typed into one input point at that input; header and assertion
 * rows use their stable key; a password or token error points at the one secret input.
 */
export function fieldKeyFor(path: string, keys: RowKeys): string {
  const [head = '', second, third] = path.split('.');
  if (Object.hasOwn(listFields, head)) return head;
  if (head === 'alerts' && second !== undefined) return `alerts.${second}`;
  if (head === 'headers') {
    const key = second === undefined ? undefined : keys.headerKeys[Number(second)];
    if (key === undefined) return 'headers';
    return third === 'value' ? `headers.${key}.value` : `headers.${key}.name`;
  }
  // Nested settings objects whose fields have inputs of their own.
  if ((head === 'schedule' || head === 'domainExpiry') && second !== undefined) {
    return `${head}.${second}`;
  }
  if (head === 'basicAuth')
    return second === 'password' ? 'basicAuth.password' : 'basicAuth.username';
  if (head === 'assertions') {
    const key = second === undefined ? undefined : keys.assertionKeys[Number(second)];
    if (key === undefined) return 'assertions';
    return `assertions.${key}.${third ?? 'kind'}`;
  }
  if (head === 'auth') {
    if (second === 'username' || second === 'kind') return `auth.${second}`;
    return second === 'password' || second === 'token' ? 'auth.secret' : 'auth.kind';
  }
  return head;
}

/** Names the offending item of a list typed as comma-separated text. */
function listMessage(path: string, message: string, values: FormValues): string {
  const [head = '', index] = path.split('.');
  const split = Object.hasOwn(listFields, head) ? listFields[head] : undefined;
  if (index === undefined || split === undefined) return message;
  const item = split(values)[Number(index)];
  return item === undefined ? message : `“${item}”: ${message}`;
}

/** Collects field errors, keeping the first per field. */
export function mapErrors(
  errors: readonly FieldError[],
  keys: RowKeys,
  values: FormValues,
): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const key = fieldKeyFor(e.path, keys);
    out[key] ??= listMessage(e.path, e.message, values);
  }
  return out;
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code: string;
  expected?: unknown;
}

/** Zod's built-in messages are for developers; the contract sets its own wherever it matters. */
function humanise(issue: Issue): string {
  if (!issue.message.startsWith('Invalid input')) return issue.message;
  if (issue.code === 'invalid_type') {
    if (issue.expected === 'int') return 'Whole numbers only';
    if (issue.expected === 'number') return 'Enter a number';
  }
  return 'This value is not valid';
}

export interface Validation extends DraftResult {
  errors: FieldErrors;
  valid: boolean;
}

/** Runs the same zod schema the server uses over what is in the form. */
export function validate(values: FormValues): Validation {
  const result = toDraft(values);
  const parsed = MonitorInput.safeParse(result.draft);
  const errors: FieldErrors = {};
  for (const field of result.notNumbers) errors[field] = 'Enter a number';
  // The schema leaves the token optional (an update keeps the saved one); a new one needs it.
  if (values.type === 'http' && values.authKind === 'bearer' && values.authSecret === '') {
    if (values.authSaved !== 'bearer') errors['auth.secret'] = 'Enter the token';
  }
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: i.path.map(String).join('.'),
      message: humanise(i as Issue),
      code: i.code,
    }));
    for (const [key, message] of Object.entries(mapErrors(issues, result, values))) {
      errors[key] ??= message;
    }
  }
  return { ...result, errors, valid: Object.keys(errors).length === 0 };
}
