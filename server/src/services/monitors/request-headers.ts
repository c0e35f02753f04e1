import type { MonitorInput, RequestHeaderInput } from '@pagewatch/contract';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { SecretBox } from '../../lib/crypto.js';
import { validationFailed } from '../../lib/errors.js';
import { hasRequestHeaders } from '../../domain/monitor-types.js';

export interface SealedHeaders {
  /** The input with the secret header values taken out (settings keep name and flag). */
  input: MonitorInput;
  /** The secret values in order, a sealed JSON array; null when no header is secret. */
  headerSecrets: string | null;
  /** A secret value was added, replaced or removed (the audit log names `headers`). */
  changed: boolean;
}

/** The values stored before, by lower-case name, in order (secret ones opened). */
function storedValues(before: MonitorRecord | null, box: SecretBox): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  if (before == null || !hasRequestHeaders(before.type)) return byName;
  const headers = (before.settings as { headers?: RequestHeaderInput[] }).headers ?? [];
  let secrets: string[] = [];
  try {
    if (before.headerSecrets != null) secrets = JSON.parse(box.open(before.headerSecrets));
  } catch {
    // A changed key: nothing to keep, so kept headers are asked for again.
  }
  let next = 0;
  for (const h of headers) {
    const value = h.secret ? secrets[next++] : h.value;
    const key = h.name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), value ?? '']);
  }
  return byName;
}

/**
 * Takes the secret header values out of the input of a monitor that sends headers (HTTP,
 * browser, WebSocket, gRPC metadata) and seals them.
 * A secret header without a value keeps the stored value of the header of the same name (any
 * case, secret or not before), the n-th of a repeated name the n-th stored one; a renamed or
 * new one needs its value. A non-secret header always brings its own value, so unticking
 * "secret" never reveals the stored one.
 */
export function sealHeaders(
  input: MonitorInput,
  before: MonitorRecord | null,
  box: SecretBox,
): SealedHeaders {
  if (!hasRequestHeaders(input.type) || !('headers' in input)) {
    return { input, headerSecrets: null, changed: before?.headerSecrets != null };
  }
  const stored = storedValues(before, box);
  const seen = new Map<string, number>();
  const values: string[] = [];
  const issues: { path: string; message: string; code: string }[] = [];
  const headers = input.headers.map((h, i): RequestHeaderInput => {
    const key = h.name.toLowerCase();
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    if (!h.secret) return { name: h.name, secret: false, value: h.value ?? '' };
    const value = h.value ?? stored.get(key)?.[nth];
    if (value === undefined || value === '') {
      const message = 'Enter the value (none is stored under this name)';
      issues.push({ path: `headers.${i}.value`, message, code: 'custom' });
    } else values.push(value);
    return { name: h.name, secret: true };
  });
  if (issues.length > 0) throw validationFailed(issues);
  const stripped = { ...input, headers } as MonitorInput;
  const previous = before?.headerSecrets ?? null;
  if (values.length === 0)
    return { input: stripped, headerSecrets: null, changed: previous !== null };
  const same = previous !== null && sameAs(previous, values, box);
  return {
    input: stripped,
    // Unchanged values keep their sealed text: a save does not churn the column.
    headerSecrets: same ? previous : box.seal(JSON.stringify(values)),
    changed: !same,
  };
}

function sameAs(sealed: string, values: readonly string[], box: SecretBox): boolean {
  try {
    return box.open(sealed) === JSON.stringify(values);
  } catch {
    return false;
  }
}
