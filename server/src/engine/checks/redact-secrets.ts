import type { Header, RequestHeaderInput } from '@pagewatch/contract';
import type { CheckRun } from './types.js';

/** Shorter secrets are left alone: masking every "42" in a page would garble the evidence. */
const MIN_LENGTH = 4;
export const REDACTED = '••••';

/**
 * The secret texts a check sends: secret header values and the credential, also as the
 * Basic header carries it. A target that echoes its request must not put them in the results.
 */
export function sentSecrets(
  settings: readonly RequestHeaderInput[],
  opened: readonly Header[],
  credential: { username?: string; secret: string } | null,
): string[] {
  const out = opened.filter((_, i) => settings[i]?.secret).map((h) => h.value);
  if (credential && credential.secret !== '') {
    out.push(credential.secret);
    if (credential.username !== undefined) {
      const pair = `${credential.username}:${credential.secret}`;
      out.push(Buffer.from(pair, 'utf8').toString('base64'));
    }
  }
  // Longest first, so a secret containing another is masked whole.
  return [...new Set(out.filter((s) => s.length >= MIN_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
}

function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    return secrets.reduce(
      (text, s) => (text.includes(s) ? text.split(s).join(REDACTED) : text),
      value,
    );
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, secrets)]));
  }
  return value;
}

/** The run with every secret the check sent masked in its message, details and evidence. */
export function redactRun(run: CheckRun, secrets: readonly string[]): CheckRun {
  if (secrets.length === 0) return run;
  return {
    ...run,
    errorMessage: run.errorMessage === null ? null : (redact(run.errorMessage, secrets) as string),
    ...(run.details ? { details: redact(run.details, secrets) as CheckRun['details'] } : {}),
    ...(run.browser
      ? {
          browser: {
            measurements: redact(
              run.browser.measurements,
              secrets,
            ) as typeof run.browser.measurements,
            screenshot: run.browser.screenshot,
          },
        }
      : {}),
  };
}
